/*
 * The report's languages and its headings and labels (i18n.c): one row per
 * text in REPORT_TEXT_MAP, one column per language. Plain tables, no model:
 * the model layer's report_text() reads them in a report's language.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_I18N_H
#define XR_I18N_H

#include "lang.h"

/* One value per row of runner/base/lang.h's table, in its order. */
enum report_lang {
	REPORT_LANG_EN = LANG_EN,
	REPORT_LANG_JA = LANG_JA,
	REPORT_LANG_COUNT = LANG_COUNT
};

#define REPORT_TEXT_MAP(X)                                                     \
	X(SUMMARY)                                                             \
	X(PLAN)                                                                \
	X(SESSIONS)                                                            \
	X(FIRST_RUN)                                                           \
	X(LAST_RUN)                                                            \
	X(HOSTS)                                                               \
	X(RUNS)                                                                \
	X(RUNS_OK)                                                             \
	X(RUNS_FAILED)                                                         \
	X(RUNS_TIMEOUT)                                                        \
	X(RUNS_OTHER)                                                          \
	X(RUNS_WARMUP)                                                         \
	X(METRIC)                                                              \
	X(THRESHOLD)                                                           \
	X(TABLES)                                                              \
	X(TABLE_CAPTION) /* "%s by %s" (metric, factors) */                    \
	X(CELLS)                                                               \
	X(CELL)                                                                \
	X(COMPARISONS)                                                         \
	X(FACTOR)                                                              \
	X(EXPLICIT_PAIR)                                                       \
	X(BASELINE)                                                            \
	X(A)                                                                   \
	X(B)                                                                   \
	X(DELTA)                                                               \
	X(CI95)                                                                \
	X(MEAN_CI) /* the cells table's t-interval of the mean */              \
	X(P)                                                                   \
	X(N)                                                                   \
	X(VERDICT)                                                             \
	X(MEDIAN)                                                              \
	X(CELL_ESTIMATE) /* the cells table's first value column */            \
	X(MEAN)                                                                \
	X(STDEV)                                                               \
	X(CV)                                                                  \
	X(MIN)                                                                 \
	X(MAX)                                                                 \
	X(SPREAD_NOTE) /* how to read "9.41 ×/÷1.005" */                     \
	X(INTERVAL_P95)                                                        \
	X(INTERVAL_PEAK)                                                       \
	X(INTERVAL_NOTE) /* interval statistics are per-interval, not runs */  \
	X(NOTES)                                                               \
	X(METHOD_NOTE) /* how verdicts are reached, with %g threshold */       \
	X(DELTA_DEF_POSITION) /* what Δ is: position model */                 \
	X(DELTA_DEF_WELCH)    /* ... Welch's t */                              \
	X(DELTA_DEF_HL)	      /* ... the robust line */                        \
	X(BETTER)                                                              \
	X(WORSE)                                                               \
	X(EQUIVALENT)                                                          \
	X(NOT_SIGNIFICANT)                                                     \
	X(NOT_COMPARABLE)                                                      \
	X(NOT_VERIFIED)                                                        \
	X(DIFFERENT)                                                           \
	X(CONFIG_PAIR) /* "configuration" (comparison table, factor col) */    \
	X(ROBUST)      /* "robust: HL %s, Mann-Whitney p=%s" */                \
	X(SENSITIVITY) /* "position model" */                                  \
	X(GEOMEAN)     /* "geometric mean" */                                  \
	X(HOST_FACTS)                                                          \
	X(SYSTEM) /* the system table near the top */                          \
	X(HOST)                                                                \
	X(KEY)                                                                 \
	X(VALUE)                                                               \
	X(SESSION)                                                             \
	X(VERIFICATION)                                                        \
	X(EXPECTED)                                                            \
	X(ACTUAL)                                                              \
	X(OK)                                                                  \
	X(MISMATCH)                                                            \
	X(VERIFY_RESULT) /* the ok/mismatch column of the verification */      \
	X(RUN_COUNT)                                                           \
	X(SIZING) /* the table of sized repetitions */                         \
	X(SZ_PILOT)                                                            \
	X(SZ_NEED)                                                             \
	X(SZ_PLANNED)                                                          \
	X(SZ_DONE)                                                             \
	X(SZ_REACHED)                                                          \
	X(SZ_STOPPED)                                                          \
	X(NONE)                                                                \
	X(NO_COMPARISONS) /* no reason known (a model built by hand) */        \
	X(NOCMP)	  /* "No comparisons: %s" */                           \
	X(NOCMP_NO_RUNS)                                                       \
	X(NOCMP_NO_FACTORS)                                                    \
	X(NOCMP_NO_TWO)	   /* %s: the factors and their levels */              \
	X(NOCMP_LEVELS)	   /* "%s: %d levels" */                               \
	X(NOCMP_LEVEL1)	   /* "%s: %d level" */                                \
	X(NOCMP_DECLARED)  /* %d declared comparisons */                       \
	X(NOCMP_OPTION)	   /* %d --compare given */                            \
	X(NOCMP_DECLARED1) /* the one declared comparison */                   \
	X(NOCMP_OPTION1)   /* the one --compare */                             \
	X(CMP_NOTE_PLAN)   /* "report.compare (plan %d:%d): %s" */             \
	X(CMP_NOTE_OPTION) /* "--compare %s: %s" */                            \
	X(CMP_ONE_LEVEL)   /* factor %s, its plan has one level */             \
	X(CMP_LEFT_ONE)	   /* factor %s, the one level with runs %s */         \
	X(CMP_NO_CELL)	   /* factor %s: no cell at all */                     \
	X(CMP_NO_BASELINE) /* factor %s, baseline %s */                        \
	X(CMP_NESTED)	   /* factor, side a, side b, side a, side b */        \
	X(CMP_PAIR)	   /* side a, side b, why */                           \
	X(CMP_PAIR_NO_PARTNER)                                                 \
	X(CMP_PAIR_NO_A)                                                       \
	X(GAP_LINE) /* metric, line, col, why */                               \
	X(GAP_ROW_LABEL)                                                       \
	X(GAP_ROW)		/* metric, why */                              \
	X(GAP_NO_OK_RUN)	/* %lld failed, the first reason %s */         \
	X(GAP_NO_OK_RUN_BARE)	/* %lld failed, no reason stored */            \
	X(GAP_EXTRACT)		/* %lld runs, the reason %s */                 \
	X(GAP_SERIES_ABSENT)	/* series, host */                             \
	X(GAP_SERIES_ANY)	/* series, on no host */                       \
	X(GAP_SERIES_ELSEWHERE) /* series, the host it was on, the host */     \
	X(GAP_SERIES_EMPTY)	/* series, host */                             \
	X(GAP_NOT_STORED)                                                      \
	X(GAP_NEAREST) /* the nearest names */                                 \
	X(GENERATED)                                                           \
	X(CONDITIONS)                                                          \
	X(CONDITION)                                                           \
	X(COND_VALUES) /* "Values (runs)" */                                   \
	X(COND_NOTE)                                                           \
	X(COND_VARIES)	  /* "varies within a cell: %s" */                     \
	X(COND_LOAD)	  /* "%s – %s on %d CPUs" */                         \
	X(COND_LOAD_OVER) /* "above the CPU count after %d of %d runs" */      \
	X(PLAN_HASH)                                                           \
	X(STARTED)                                                             \
	X(METHOD)                                                              \
	X(REFERENCE)                                                           \
	X(LATENCY_LOAD) /* the latency increase under load (rlatency.c) */     \
	X(LAT_TS_TITLE) /* "%s: ... run #%d" (chart_latency.c) */              \
	X(LAT_CDF_TITLE)                                                       \
	X(LAT_RTT_AXIS)	    /* the CDF's x axis, ms */                         \
	X(LAT_SHARE)	    /* the CDF's y axis */                             \
	X(LAT_SECONDS)	    /* the time series' x axis */                      \
	X(LAT_IDLE)	    /* the shaded idle phase */                        \
	X(LAT_TPUT_KEY)	    /* legend: throughput, left axis */                \
	X(LAT_RTT_KEY)	    /* legend: round-trip time, right axis */          \
	X(LAT_TABLE)	    /* the per-cell latency table's caption */         \
	X(SEARCH_TITLE)	    /* the rate search table (rsearch.c) */            \
	X(SEARCH_CHART)	    /* "%s: loss ratio against offered load ..." */    \
	X(SEARCH_LOAD_AXIS) /* "offered load (%s)" */                          \
	X(SEARCH_LOSS_AXIS)                                                    \
	X(SEARCH_GOAL)                                                         \
	X(SEARCH_LOAD)                                                         \
	X(SEARCH_TPUT)                                                         \
	X(SEARCH_UPPER)                                                        \
	X(SEARCH_TRIALS)                                                       \
	X(SEARCH_IRREGULAR)                                                    \
	X(SEARCH_PARAMS) /* the parameters under the chart */                  \
	X(LAT_IDLE_P50)                                                        \
	X(LAT_LOADED_P50)                                                      \
	X(LAT_LOADED_P90)                                                      \
	X(LAT_LOADED_P99)                                                      \
	X(LAT_INCREASE)                                                        \
	X(LAT_LOSS)                                                            \
	X(REF_PUBLISHED)                                                       \
	X(REF_MEASURED)                                                        \
	X(REF_RANGE)                                                           \
	X(REF_RATIO)                                                           \
	X(REF_IN_RANGE)                                                        \
	X(REF_NOT_MEASURED)                                                    \
	X(REF_AMBIGUOUS)                                                       \
	X(REF_NOTE) /* "%s" = reference file; how to read the table */         \
	X(REF_VERDICT)                                                         \
	X(REF_REPRODUCED)                                                      \
	X(REF_DIFFERS)                                                         \
	X(REF_INCONCLUSIVE)                                                    \
	X(REF_NOT_COMPARABLE)                                                  \
	X(REF_NOT_VERIFIED)                                                    \
	X(REF_BELOW)   /* "%.1f%% below" */                                    \
	X(REF_ABOVE)   /* "%.1f%% above" */                                    \
	X(REF_SUMMARY) /* "%d of %d published cells reproduced within ±%g%%"  \
			*/                                                     \
	X(REF_PUBLISHED_RUNS)                                                  \
	X(REF_STATISTIC)                                                       \
	X(REF_TOLERANCE)                                                       \
	X(REF_SOURCE)                                                          \
	X(REF_CONDITIONS)                                                      \
	X(LIMITS)                                                              \
	X(FINDINGS)	 /* the block at the top: the answer first */          \
	X(F_RUNNING)	 /* "%lld of %lld runs done; xrun pid %ld ..." */      \
	X(F_RUNNING_ANY) /* the same without a pid: %lld, %lld */              \
	X(F_INTERRUPTED) /* %lld done of %lld, nothing runs it */              \
	X(F_INCOMPLETE)	 /* %lld done of %lld, ended with runs left */         \
	X(F_VALUES)	 /* both sides' geometric means: %s, %s, unit %s */    \
	X(F_CELLS)	 /* "%d of %d cells: %s" */                            \
	X(F_FAILED)	 /* "%d of %d runs failed: %s" */                      \
	X(F_TIMEOUT)	 /* "%d of %d runs timed out: %s" */                   \
	X(F_NO_REASON)	 /* a failed run with no reason stored */              \
	X(F_MORE)	 /* "+%d more" after a list of cells */                \
	X(YES)                                                                 \
	X(NO)

enum report_text_id {
#define REPORT_TEXT_ENUM(n) REPORT_T_##n,
	REPORT_TEXT_MAP(REPORT_TEXT_ENUM)
#undef REPORT_TEXT_ENUM
	    REPORT_T_COUNT
};

/* Heading/label in lang; never NULL. */
const char *report_text_lang(enum report_lang lang, enum report_text_id id);
/* "en"/"ja" -> enum; -1 when unknown. */
int report_lang_parse(const char *s);

#endif
