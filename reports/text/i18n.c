/*
 * Headings and labels of every report in English and Japanese
 * (REPORT_TEXT_MAP in i18n.h). The Japanese follows the wording of the
 * benchmark articles the reports imitate.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "i18n.h"
#include "banned.h"

static const char *const texts[REPORT_T_COUNT][REPORT_LANG_COUNT] = {
    [REPORT_T_SUMMARY] = {"Summary", "概要"},
    [REPORT_T_PLAN] = {"Plan", "計画"},
    [REPORT_T_SESSIONS] = {"Sessions", "セッション"},
    [REPORT_T_FIRST_RUN] = {"First run", "最初の試行"},
    [REPORT_T_LAST_RUN] = {"Last run", "最後の試行"},
    [REPORT_T_HOSTS] = {"Hosts", "ホスト"},
    [REPORT_T_RUNS] = {"Runs", "試行"},
    [REPORT_T_RUNS_OK] = {"ok", "成功"},
    [REPORT_T_RUNS_FAILED] = {"failed", "失敗"},
    [REPORT_T_RUNS_TIMEOUT] = {"timeout", "タイムアウト"},
    [REPORT_T_RUNS_OTHER] = {"other", "その他"},
    [REPORT_T_RUNS_WARMUP] = {"warm-up", "ウォームアップ"},
    [REPORT_T_METRIC] = {"Metric", "指標"},
    [REPORT_T_THRESHOLD] = {"Noise threshold", "判定しきい値"},
    [REPORT_T_TABLES] = {"Results", "結果"},
    [REPORT_T_TABLE_CAPTION] = {"%s by %s", "%s（%s 別）"},
    [REPORT_T_CELLS] = {"Cells", "セル"},
    [REPORT_T_CELL] = {"Cell", "セル"},
    [REPORT_T_COMPARISONS] = {"Comparisons", "比較"},
    [REPORT_T_FACTOR] = {"Factor", "因子"},
    [REPORT_T_EXPLICIT_PAIR] = {"pair", "指定ペア"},
    [REPORT_T_BASELINE] = {"Baseline", "基準"},
    [REPORT_T_A] = {"A (baseline)", "A（基準）"},
    [REPORT_T_B] = {"B", "B"},
    [REPORT_T_DELTA] = {"Δ B vs A [95% CI]", "差 B/A [95% 信頼区間]"},
    [REPORT_T_CI95] = {"95% CI", "95% 信頼区間"},
    [REPORT_T_MEAN_CI] = {"mean 95% CI", "平均の 95% 信頼区間"},
    [REPORT_T_P] = {"p", "p 値"},
    [REPORT_T_N] = {"n", "n"},
    [REPORT_T_VERDICT] = {"Verdict", "判定"},
    [REPORT_T_MEDIAN] = {"median", "中央値"},
    [REPORT_T_CELL_ESTIMATE] = {"geomean ×/÷ 95% interval",
				"幾何平均 ×/÷ 95% 区間"},
    [REPORT_T_MEAN] = {"mean", "平均"},
    [REPORT_T_STDEV] = {"stdev", "標準偏差"},
    [REPORT_T_CV] = {"CV %", "変動係数 %"},
    [REPORT_T_MIN] = {"min", "最小"},
    [REPORT_T_MAX] = {"max", "最大"},
    [REPORT_T_SPREAD_NOTE] =
	{"A cell shows the geometric mean over its successful runs, the "
	 "estimator the comparisons use, with its 95% interval as a factor: "
	 "\"9.41 ×/÷1.005\" is 9.41 with the interval [9.41/1.005, "
	 "9.41×1.005]. The chart's bars and the cells table's first value "
	 "column show the same number; the cells table gives the median and "
	 "the mean beside it, labelled. [k] marks refer to the notes.",
	 "各セルは成功した試行の幾何平均（比較に使う推定量）と、その 95% "
	 "区間を倍率で示す: \"9.41 ×/÷1.005\" は区間 [9.41/1.005, "
	 "9.41×1.005]"
	 "。グラフの棒とセルの表の最初の値の列も同じ値で、セルの表には"
	 "中央値と平均も見出し付きで並べる。"
	 "[k] は注記番号。"},
    [REPORT_T_INTERVAL_P95] = {"interval p95", "区間 p95"},
    [REPORT_T_INTERVAL_PEAK] = {"interval peak", "区間ピーク"},
    [REPORT_T_INTERVAL_NOTE] =
	{"Interval statistics (p95, peak) are taken over the "
	 "per-interval samples inside the runs, not over runs.",
	 "区間統計（p95、ピーク）は試行内の区間ごとの値から求めたもので、"
	 "試行間の統計ではない。"},
    [REPORT_T_NOTES] = {"Notes", "注記"},
    [REPORT_T_METHOD_NOTE] =
	{"Intervals: the position model's with HC2 robust standard errors "
	 "and Bell–McCaffrey degrees of freedom from each side's own "
	 "variance when the sides have as many runs each and were not "
	 "sized, else HC3; Welch's t when the runs were not interleaved. "
	 "Better/worse: the 95%% CI lies wholly beyond "
	 "±%g%%; ≈ equivalent: the 90%% CI (TOST) lies wholly inside; "
	 "~ not significant: the 95%% CI contains 0; ≠ different: the CI "
	 "excludes 0 but crosses the threshold (a real difference of "
	 "uncertain size). Sides not interleaved (drift is then confounded "
	 "with the difference) and sessions with different host facts get "
	 "no verdict unless the plan accepts a sequential design.",
	 "区間: 実行順モデルでは両側の試行数が等しく試行回数を決めていなければ "
	 "HC2 頑健標準誤差と各側の分散による Bell–McCaffrey の自由度、"
	 "そうでなければ HC3。"
	 "交互でない実行は Welch の t 検定。"
	 "改善/悪化: 95%% 信頼区間が"
	 " ±%g%% の外側、≈ 同等: 90%% 信頼区間（TOST）が内側、~ 有意差なし: "
	 "95%% 信頼区間が 0 を含む、≠ 差あり: 0 を含まないが閾値をまたぐ"
	 "（差はあるが大きさが不確定）。交互でない実行（ドリフトと差が区別"
	 "できない）とホスト情報の異なるセッションは、計画が順次実行を受け"
	 "入れない限り判定しない。"},
    [REPORT_T_DELTA_DEF_POSITION] =
	{"Δ (position model) = 100 × (exp(b) − 1) %, b the coefficient of "
	 "side B in the least-squares fit of ln(y) on the side, the run "
	 "position and one intercept per session: B's geometric mean over "
	 "A's with linear drift removed, minus 1.",
	 "Δ（実行順モデル）= 100 × (exp(b) − 1) %。b は ln(y) を側・実行順・"
	 "セッションごとの切片に最小二乗で回帰したときの側 B の係数で、線形"
	 "ドリフトを除いた B と A の幾何平均の比から 1 を引いたもの。"},
    [REPORT_T_DELTA_DEF_WELCH] =
	{"Δ (Welch) = 100 × (exp(mean ln(y_B) − mean ln(y_A)) − 1) % = "
	 "100 × (geomean(B) / geomean(A) − 1) %.",
	 "Δ（Welch）= 100 × (exp(ln(y_B) の平均 − ln(y_A) の平均) − 1) % = "
	 "100 × (B の幾何平均 / A の幾何平均 − 1) %。"},
    [REPORT_T_DELTA_DEF_HL] =
	{"Robust Δ (Hodges–Lehmann) = 100 × (exp(median of ln(y_B) − "
	 "ln(y_A) over every pair of a B run and an A run) − 1) %, with "
	 "Mann–Whitney's two-sided p.",
	 "頑健な Δ（Hodges–Lehmann）= 100 × (exp(B の試行と A の試行の全組の "
	 "ln(y_B) − ln(y_A) の中央値) − 1) %、p は Mann–Whitney の両側検定。"},
    [REPORT_T_BETTER] = {"better", "改善"},
    [REPORT_T_WORSE] = {"worse", "悪化"},
    [REPORT_T_EQUIVALENT] = {"equivalent", "同等"},
    [REPORT_T_NOT_SIGNIFICANT] = {"not significant", "有意差なし"},
    [REPORT_T_NOT_COMPARABLE] = {"not comparable", "比較不可"},
    [REPORT_T_NOT_VERIFIED] = {"not verified", "未検証"},
    [REPORT_T_DIFFERENT] = {"different, size uncertain",
			    "差あり（大きさは不確定）"},
    [REPORT_T_CONFIG_PAIR] = {"configuration", "構成の比較"},
    [REPORT_T_ROBUST] = {"robust: Hodges-Lehmann %s, Mann-Whitney p=%s",
			 "頑健推定: Hodges-Lehmann %s、Mann-Whitney p=%s"},
    [REPORT_T_SENSITIVITY] = {"position model", "実行順モデル"},
    [REPORT_T_GEOMEAN] = {"geomean", "幾何平均"},
    [REPORT_T_CONDITIONS] = {"Conditions observed", "測定時の条件"},
    [REPORT_T_CONDITION] = {"Condition", "条件"},
    [REPORT_T_COND_VALUES] = {"Values (runs)", "値（試行数）"},
    [REPORT_T_COND_NOTE] = {"Note", "備考"},
    [REPORT_T_COND_VARIES] = {"varies within a cell: %s",
			      "セル内で値が異なる: %s"},
    [REPORT_T_COND_LOAD] = {"%s – %s on %d CPUs", "%s – %s（CPU %d 個）"},
    [REPORT_T_COND_LOAD_OVER] = {"above the CPU count after %d of %d runs",
				 "%2$d 回中 %1$d 回の試行後に CPU 数を超過"},
    [REPORT_T_PLAN_HASH] = {"Plan hash", "計画ハッシュ"},
    [REPORT_T_STARTED] = {"Started", "開始"},
    [REPORT_T_HOST_FACTS] = {"Host facts", "ホスト情報"},
    [REPORT_T_SYSTEM] = {"System", "測定環境"},
    [REPORT_T_HOST] = {"Host", "ホスト"},
    [REPORT_T_KEY] = {"Key", "項目"},
    [REPORT_T_VALUE] = {"Value", "値"},
    [REPORT_T_SESSION] = {"Session", "セッション"},
    [REPORT_T_VERIFICATION] = {"Verification", "設定の検証"},
    [REPORT_T_EXPECTED] = {"Expected", "期待値"},
    [REPORT_T_ACTUAL] = {"Actual", "実測値"},
    [REPORT_T_OK] = {"ok", "一致"},
    [REPORT_T_MISMATCH] = {"MISMATCH", "不一致"},
    [REPORT_T_VERIFY_RESULT] = {"Result", "結果"},
    [REPORT_T_RUN_COUNT] = {"Runs", "試行数"},
    [REPORT_T_SIZING] = {"Repetitions sized from the pilot",
			 "パイロットから決めた試行回数"},
    [REPORT_T_SZ_PILOT] = {"pilot", "パイロット"},
    [REPORT_T_SZ_NEED] = {"need", "必要数"},
    [REPORT_T_SZ_PLANNED] = {"planned", "計画"},
    [REPORT_T_SZ_DONE] = {"done", "実施"},
    [REPORT_T_SZ_REACHED] = {"precision reached (target)", "到達精度（目標）"},
    [REPORT_T_SZ_STOPPED] = {"stopped", "終了理由"},
    [REPORT_T_NONE] = {"none", "なし"},
    [REPORT_T_REFERENCE] = {"Reference comparison", "公表値との比較"},
    [REPORT_T_LATENCY_LOAD] = {"Latency under load", "負荷時の遅延"},
    [REPORT_T_LAT_TS_TITLE] = {"%s: throughput and round-trip time over "
			       "time, run #%d (shaded: idle, before the load)",
			       "%s: 時間ごとのスループットと往復遅延、試行 #%d"
			       "（網掛け: 負荷前のアイドル）"},
    [REPORT_T_LAT_CDF_TITLE] = {"Round-trip time under load, cumulative "
				"distribution per cell (every probe reply "
				"while the engine ran, all runs)",
				"負荷時の往復遅延の累積分布（セルごと、"
				"エンジン実行中のすべての応答、全試行）"},
    [REPORT_T_LAT_RTT_AXIS] = {"round-trip time under load (ms)",
			       "負荷時の往復遅延（ms）"},
    [REPORT_T_LAT_SHARE] = {"share of replies <= x", "x 以下の応答の割合"},
    [REPORT_T_LAT_SECONDS] = {"seconds from the engine's start",
			      "エンジン開始からの秒数"},
    [REPORT_T_LAT_IDLE] = {"idle", "アイドル"},
    [REPORT_T_LAT_TPUT_KEY] = {"throughput (left, %s)",
			       "スループット（左軸、%s）"},
    [REPORT_T_LAT_RTT_KEY] = {"round-trip time (right, ms)",
			      "往復遅延（右軸、ms）"},
    [REPORT_T_LAT_TABLE] = {"Latency under load (median over runs)",
			    "負荷時の遅延（試行の中央値）"},
    [REPORT_T_SEARCH_TITLE] = {"Rate search (RFC 9971): the highest offered "
			       "load meeting each goal",
			       "レート探索（RFC 9971）: 各目標を満たす最大の"
			       "オファード負荷"},
    [REPORT_T_SEARCH_CHART] = {"%s: loss ratio against offered load, every "
			       "trial (hollow: above the axis, drawn at its "
			       "top); the loads found marked",
			       "%s: オファード負荷に対する損失率、全トライアル"
			       "（白抜き: 軸の上、上端に表示）、探索結果に印"},
    [REPORT_T_SEARCH_LOAD_AXIS] = {"offered load (%s)", "オファード負荷（%s）"},
    [REPORT_T_SEARCH_LOSS_AXIS] = {"loss ratio (%)", "損失率（%）"},
    [REPORT_T_SEARCH_GOAL] = {"goal", "目標"},
    [REPORT_T_SEARCH_LOAD] = {"load", "負荷"},
    [REPORT_T_SEARCH_TPUT] = {"throughput", "スループット"},
    [REPORT_T_SEARCH_UPPER] = {"upper bound", "上限"},
    [REPORT_T_SEARCH_TRIALS] = {"trials", "トライアル"},
    [REPORT_T_SEARCH_IRREGULAR] = {"irregular: %s", "不規則: %s"},
    [REPORT_T_SEARCH_PARAMS] = {"Search: %s from %s to %s, width %s "
				"(relative); goals (loss, final trial, "
				"duration sum, exceed): %s",
				"探索: %s を %s から %s、幅 %s（相対）; "
				"目標（損失率、最終トライアル、合計時間、"
				"超過率）: %s"},
    [REPORT_T_LAT_IDLE_P50] = {"idle p50", "アイドル p50"},
    [REPORT_T_LAT_LOADED_P50] = {"loaded p50", "負荷時 p50"},
    [REPORT_T_LAT_LOADED_P90] = {"loaded p90", "負荷時 p90"},
    [REPORT_T_LAT_LOADED_P99] = {"loaded p99", "負荷時 p99"},
    [REPORT_T_LAT_INCREASE] = {"increase p50", "増加 p50"},
    [REPORT_T_LAT_LOSS] = {"probe loss", "プローブ損失"},
    [REPORT_T_REF_PUBLISHED] = {"published", "公表値"},
    [REPORT_T_REF_MEASURED] = {"measured median", "実測中央値"},
    [REPORT_T_REF_RANGE] = {"min–max", "最小–最大"},
    [REPORT_T_REF_RATIO] = {"measured / published", "実測 / 公表"},
    [REPORT_T_REF_IN_RANGE] = {"published in range", "公表値が範囲内"},
    [REPORT_T_REF_NOT_MEASURED] = {"not measured", "未測定"},
    [REPORT_T_REF_AMBIGUOUS] = {"ambiguous", "曖昧"},
    [REPORT_T_REF_NOTE] = {"Published values from %s, matched to the "
			   "measured cell with the same levels. Ratio = "
			   "measured median / published; \"in range\": the "
			   "published value lies within the measured "
			   "min–max. Verdict: reproduced when the interval "
			   "of the measured statistic the publication gives "
			   "(mean, median, ...) lies within ±tolerance of the "
			   "published value (with published runs: an "
			   "equivalence test, TOST, on the two samples); "
			   "differs when wholly outside; not comparable when "
			   "a published condition differs from the runs' or "
			   "a setting was verified wrong in some run; not "
			   "verified when a setting was applied but never "
			   "verified.",
			   "公表値（%s）を同じ水準の実測セルと対応付けた。比"
			   "＝実測中央値／公表値。「範囲内」は公表値が実測の"
			   "最小–最大の間にあること。判定: 公表された統計量"
			   "（平均・中央値など）の実測区間が公表値の ±許容差"
			   "に収まれば再現（公表試行があれば 2 標本の同等性"
			   "検定 TOST）、完全に外れれば相違、公表条件が実測と"
			   "異なるか設定の検証が不一致の試行があれば比較不可、"
			   "設定を適用したが検証していなければ未検証。"},
    [REPORT_T_REF_VERDICT] = {"verdict", "判定"},
    [REPORT_T_REF_REPRODUCED] = {"reproduced", "再現"},
    [REPORT_T_REF_DIFFERS] = {"differs", "相違"},
    [REPORT_T_REF_INCONCLUSIVE] = {"inconclusive", "判定不能"},
    [REPORT_T_REF_NOT_COMPARABLE] = {"not comparable", "比較不可"},
    [REPORT_T_REF_NOT_VERIFIED] = {"not verified", "未検証"},
    [REPORT_T_REF_BELOW] = {"%.1f%% below", "%.1f%% 低い"},
    [REPORT_T_REF_ABOVE] = {"%.1f%% above", "%.1f%% 高い"},
    [REPORT_T_REF_SUMMARY] =
	{"%d of %d published cells reproduced within "
	 "±%g%%",
	 "公表セル %2$d 件中 %1$d 件が ±%3$g%% 以内で再現"},
    [REPORT_T_REF_PUBLISHED_RUNS] = {"published runs", "公表試行数"},
    [REPORT_T_REF_STATISTIC] = {"statistic", "統計量"},
    [REPORT_T_REF_TOLERANCE] = {"tolerance", "許容差"},
    [REPORT_T_REF_SOURCE] = {"source", "出典"},
    [REPORT_T_REF_CONDITIONS] = {"published conditions", "公表条件"},
    [REPORT_T_LIMITS] = {"What limits each cell", "各セルの限界要因"},
    [REPORT_T_YES] = {"yes", "はい"},
    [REPORT_T_NO] = {"no", "いいえ"},
    [REPORT_T_NO_COMPARISONS] = {"No comparisons.", "比較なし。"},
    [REPORT_T_NOCMP] = {"No comparisons: %s.", "比較なし: %s。"},
    [REPORT_T_NOCMP_NO_RUNS] = {"no run of the reported sessions is stored",
				"対象セッションの試行が記録されていない"},
    [REPORT_T_NOCMP_NO_FACTORS] =
	{"the plan has no factor, so every run measures the same cell",
	 "計画に因子がなく、すべての試行が同じセルを測る"},
    [REPORT_T_NOCMP_NO_TWO] =
	{"the plan declares none (report.compare) and no factor has "
	 "exactly two levels (%s); declare report.compare, or give "
	 "--compare FACTOR, to compare levels against a baseline",
	 "計画に report.compare の指定がなく、水準がちょうど 2 つの因子も"
	 "ない（%s）。基準の水準と比べるには report.compare を指定するか、"
	 "--compare に因子名を与える"},
    [REPORT_T_NOCMP_LEVELS] = {"%s: %d levels", "%s: %d 水準"},
    [REPORT_T_NOCMP_LEVEL1] = {"%s: %d level", "%s: %d 水準"},
    [REPORT_T_NOCMP_DECLARED] =
	{"none of the %d declared comparisons (report.compare) yields a "
	 "pair of cells (why, for each: above)",
	 "指定された %d 件の比較（report.compare）のどれからもセルの組が"
	 "得られない（それぞれの理由は上記）"},
    [REPORT_T_NOCMP_OPTION] =
	{"none of the %d comparisons given with --compare yields a pair of "
	 "cells (why, for each: above)",
	 "--compare で与えた %d 件の比較のどれからもセルの組が得られない"
	 "（それぞれの理由は上記）"},
    [REPORT_T_NOCMP_DECLARED1] =
	{"the comparison the plan declares (report.compare) yields no pair "
	 "of cells (why: above)",
	 "計画が指定した比較（report.compare）からセルの組が得られない"
	 "（理由は上記）"},
    [REPORT_T_NOCMP_OPTION1] = {"the comparison given with --compare "
				"yields no pair of cells (why: above)",
				"--compare で与えた比較からセルの組が得られない"
				"（理由は上記）"},
    [REPORT_T_CMP_NOTE_PLAN] = {"report.compare (plan %d:%d): %s",
				"report.compare（計画 %d:%d）: %s"},
    [REPORT_T_CMP_NOTE_OPTION] = {"--compare %s: %s", "--compare %s: %s"},
    [REPORT_T_CMP_ONE_LEVEL] = {"factor '%s' has one level: there is "
				"nothing to compare it with",
				"因子 '%s' の水準は 1 つで、比べる相手がない"},
    [REPORT_T_CMP_LEFT_ONE] =
	{"factor '%s' has runs at one level only (%s): the exclusions or "
	 "--only left nothing to compare it with",
	 "因子 '%s' は 1 つの水準（%s）にしか試行がなく、除外または --only "
	 "により比べる相手がない"},
    [REPORT_T_CMP_NO_CELL] = {"factor '%s' has no cell with runs",
			      "因子 '%s' には試行のあるセルがない"},
    [REPORT_T_CMP_NO_BASELINE] = {"factor '%s' has no runs at its baseline "
				  "'%s'",
				  "因子 '%s' の基準の水準 '%s' に試行がない"},
    [REPORT_T_CMP_NESTED] =
	{"factor '%s' yields no comparison: no two cells differ in it only "
	 "(the exclusions nest it: {%s} against {%s}); to compare those "
	 "setups, declare the pair {a: {%s}, b: {%s}}",
	 "因子 '%s' から比較が得られない: この因子だけが異なるセルの組が"
	 "ない（除外で入れ子になっている: {%s} と {%s}）。これらの構成を"
	 "比べるには、ペア {a: {%s}, b: {%s}} を指定する"},
    [REPORT_T_CMP_PAIR] = {"the pair %s against %s yields no comparison: %s",
			   "指定ペア %s と %s から比較が得られない: %s"},
    [REPORT_T_CMP_PAIR_NO_PARTNER] =
	{"no cell of side b differs from a side-a cell only in the factors "
	 "b names (name every factor the sides differ in, in both a and b)",
	 "b 側のセルが a 側のセルと b の因子以外でも異なる（両側で異なる"
	 "因子をすべて a と b に書く）"},
    [REPORT_T_CMP_PAIR_NO_A] = {"no cell has side a's levels",
				"a 側の水準をもつセルがない"},
    [REPORT_T_GAP_LINE] = {"metric '%s' (plan %d:%d): declared, no values "
			   "(%s)",
			   "指標 '%s'（計画 %d:%d）: 宣言済み・値なし（%s）"},
    [REPORT_T_GAP_ROW_LABEL] = {"Declared metric", "宣言済みの指標"},
    [REPORT_T_GAP_ROW] = {"%s: declared, no values (%s)",
			  "%s: 宣言済み・値なし（%s）"},
    [REPORT_T_GAP_NO_OK_RUN] = {"no run ended ok: %lld failed, the first "
				"with: %s",
				"正常に終了した試行がない: 失敗 %lld 件、最初の"
				"理由: %s"},
    [REPORT_T_GAP_NO_OK_RUN_BARE] = {"no run ended ok: %lld failed",
				     "正常に終了した試行がない: 失敗 %lld 件"},
    [REPORT_T_GAP_EXTRACT] = {"%lld runs failed on it: %s",
			      "%lld 件の試行がこの指標で失敗: %s"},
    [REPORT_T_GAP_SERIES_ABSENT] = {"the series '%s' was not sampled on "
				    "host %s",
				    "系列 '%s' はホスト %s で採取されなかった"},
    [REPORT_T_GAP_SERIES_ANY] = {"the series '%s' was not sampled on any "
				 "host",
				 "系列 '%s' はどのホストでも採取されなかった"},
    [REPORT_T_GAP_SERIES_ELSEWHERE] =
	{"the series '%s' was sampled on host %s, not on %s",
	 "系列 '%1$s' は %3$s ではなくホスト %2$s で採取された"},
    [REPORT_T_GAP_SERIES_EMPTY] =
	{"the series '%s' on host %s had no point during the engine's run",
	 "ホスト %2$s の系列 '%1$s' にエンジン実行中の点がない"},
    [REPORT_T_GAP_NOT_STORED] = {"the ok runs stored no value of it",
				 "正常に終了した試行に値が記録されていない"},
    [REPORT_T_GAP_NEAREST] = {"; nearest names: %s", "。近い名前: %s"},
    [REPORT_T_GENERATED] = {"Generated", "作成日時"},
    [REPORT_T_METHOD] = {"Method", "方法"},
    [REPORT_T_FINDINGS] = {"Findings", "要点"},
    [REPORT_T_F_RUNNING] = {"Unfinished: %lld of %lld runs done; xrun "
			    "(pid %ld) is running it now",
			    "未完了: %lld / %lld 試行が終了、xrun（pid %ld）"
			    "が実行中"},
    [REPORT_T_F_RUNNING_ANY] =
	{"Unfinished: %lld of %lld runs done; an "
	 "xrun is running it now",
	 "未完了: %lld / %lld 試行が終了、xrun が実行中"},
    [REPORT_T_F_INTERRUPTED] = {"Interrupted: %lld of %lld runs done; no "
				"xrun is running it (run the plan again to "
				"resume)",
				"中断: %lld / %lld 試行が終了、実行中の xrun "
				"はない（計画をもう一度実行すると再開）"},
    [REPORT_T_F_INCOMPLETE] = {"Incomplete: %lld of %lld runs done (run the "
			       "plan again to run the rest)",
			       "未完了: %lld / %lld 試行が終了（計画をもう一度"
			       "実行すると残りを実行）"},
    [REPORT_T_F_VALUES] = {"geomean %s → %s %s", "幾何平均 %s → %s %s"},
    [REPORT_T_F_CELLS] = {"%d of %d cells: %s", "%d / %d セル: %s"},
    [REPORT_T_F_FAILED] = {"%d of %d runs failed: %s",
			   "%d / %d 試行が失敗: %s"},
    [REPORT_T_F_TIMEOUT] = {"%d of %d runs timed out: %s",
			    "%d / %d 試行がタイムアウト: %s"},
    [REPORT_T_F_NO_REASON] = {"no reason stored", "理由の記録なし"},
    [REPORT_T_F_MORE] = {"+%d more", "ほか %d"},
};

const char *report_text_lang(enum report_lang lang, enum report_text_id id)
{
	const char *t;
	if ((unsigned)id >= REPORT_T_COUNT)
		return "";
	if ((unsigned)lang >= REPORT_LANG_COUNT)
		lang = REPORT_LANG_EN;
	t = texts[id][lang];
	if (!t)
		t = texts[id][REPORT_LANG_EN];
	return t ? t : "";
}

int report_lang_parse(const char *s)
{
	return lang_find(s); /* LANG_NOT_FOUND (-1) when s is not a row */
}
