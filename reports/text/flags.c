/*
 * Comparability flags: the one table of every flag (REPORT_FLAG_MAP in
 * flags.h names them in note order) with its JSON code, where it is
 * raised, whether it refuses a comparison, the sentence that explains it in
 * the notes and the short form of verdict cells, in English and Japanese
 * (where a sentence names the engines' version facts, their labels come
 * from the engines' rows, runner/desc engine_version_at).
 * schema/report.md's flag table is checked against it (test_flags.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <string.h>

#include <stdio.h>

#include "buf.h"
#include "engine_cond.h"
#include "flags.h"
#include "banned.h"

#define CELL REPORT_SCOPE_CELL
#define CMP REPORT_SCOPE_CMP
#define BOTH REPORT_SCOPE_BOTH
#define REFUSES 1
#define WARNS 0

struct flag_row {
	const char *code;
	enum report_flag_scope scope;
	int refuses;
	const char *text[REPORT_LANG_COUNT];
	/* For verdict cells, followed by the detail: "— not comparable:
	 * cells differ in nic, slot". */
	const char *short_text[REPORT_LANG_COUNT];
	/* A warning that qualifies the verdict itself: written in the
	 * verdict cell, not only as a note mark. */
	int in_cell;
	/* 1: text has one %s, where each engine's version fact goes
	 * (version_word): the facts a comparison watches name no engine
	 * here (reports/model/compare.c watches the same rows). */
	int versions;
};

/* An engine's version fact in a sentence, its label (runner/desc
 * engine_version_at) for %s. */
static const char *const version_word[REPORT_LANG_COUNT] = {
    [REPORT_LANG_EN] = ", %s version",
    [REPORT_LANG_JA] = "、%s の版",
};

static const struct flag_row flag_rows[REPORT_FLAG_COUNT] = {
    [REPORT_FLAG_FACTORS_DIFFER] =
	{"factors_differ",
	 CMP,
	 REFUSES,
	 {"the two cells differ in more than the compared factor, so the "
	  "difference cannot be attributed to one of them",
	  "比較対象の因子以外にも異なる因子があり、差をどれか一つに帰せない"},
	 {"cells differ in", "異なる因子:"}},
    [REPORT_FLAG_ENGINE_DIFFERS] =
	{"engine_differs",
	 CMP,
	 REFUSES,
	 {"the engine, its parameters or its target differ between the two "
	  "sides beyond the compared factor",
	  "比較対象の因子以外で、負荷エンジン・パラメータ・接続先が異なる"},
	 {"engine settings differ:", "エンジン設定が異なる:"}},
    [REPORT_FLAG_UNIT_DIFFERS] =
	{"unit_differs",
	 CMP,
	 REFUSES,
	 {"the metric's unit or kind differs between the sides",
	  "指標の単位または種類が両側で異なる"},
	 {"units differ:", "単位が異なる:"}},
    [REPORT_FLAG_TOO_FEW_RUNS] =
	{"too_few_runs",
	 BOTH,
	 REFUSES,
	 {"too few successful runs: need >= 3 runs per side",
	  "成功した試行が少なすぎる（各側 3 回以上必要）"},
	 {"need >= 3 runs per side,", "各側 3 回以上必要:"}},
    /* No verdict on what did not run: a cell flag for any factor, and a
     * reason on every comparison and reference row of the cell. */
    [REPORT_FLAG_VERIFY_FAILED] =
	{"verify_failed",
	 BOTH,
	 REFUSES,
	 {"a setting was verified wrong in some runs: those runs did not "
	  "measure what the plan says, so no comparison or reference row "
	  "using the cell gets a verdict (counts are runs)",
	  "設定の検証が一部の試行で不一致: その試行は計画どおりの条件で"
	  "測定されていないため、このセルを使う比較と公表値の行は判定しない"
	  "（回数は試行数）"},
	 {"setting verified wrong:", "設定の検証が不一致:"}},
    /* Withholds the verdict: the comparison's verdict is not_verified. */
    [REPORT_FLAG_NOT_VERIFIED] =
	{"not_verified",
	 CMP,
	 REFUSES,
	 {"the setting under comparison was applied but not verified in "
	  "some runs (no probe or verify command checked it; an apply hook's "
	  "exit status is no check): no verdict, the verdict is not_verified "
	  "(counts are runs)",
	  "比較対象の設定を適用したが一部の試行で検証していない（probe や "
	  "verify による確認なし。apply フックの終了コードは確認にならない）"
	  "ため判定しない: 判定は not_verified（回数は試行数）"},
	 {"not verified:", "未検証:"}},
    [REPORT_FLAG_NOT_INTERLEAVED] =
	{"not_interleaved",
	 CMP,
	 REFUSES,
	 {"the runs of the two sides were not interleaved (their time "
	  "windows do not overlap): drift over time is confounded with the "
	  "difference, so no verdict is given unless the plan accepts a "
	  "sequential design (report.compare accept: sequential)",
	  "両側の試行が交互に実行されていない（時間帯が重ならない）ため、"
	  "時間的な変動と差が区別できず判定しない（report.compare の "
	  "accept: sequential で受け入れた場合を除く）"},
	 {"not interleaved:", "交互実行でない:"}},
    [REPORT_FLAG_FAILED_RUNS] = {"failed_runs",
				 CELL,
				 WARNS,
				 {"the cell has failed or timed-out runs",
				  "失敗またはタイムアウトした試行がある"},
				 {"failed runs:", "失敗した試行:"}},
    [REPORT_FLAG_OUTPUT_CUT] =
	{"output_cut",
	 CELL,
	 WARNS,
	 {"an ok run's output passed xrun's output cap and was cut: its "
	  "values were read from the part kept (the rest was read and "
	  "dropped)",
	  "成功した試行の出力が xrun の出力上限を超えて切り詰められた: "
	  "値は保存された部分から読み取った（残りは読み捨てた）"},
	 {"output cut:", "出力切り詰め:"}},
    [REPORT_FLAG_RX_DROPS] = {"rx_drops",
			      CELL,
			      WARNS,
			      {"packets were dropped during the runs",
			       "試行中にパケットの破棄（drop）があった"},
			      {"drops:", "パケット破棄:"}},
    [REPORT_FLAG_NIC_ERRORS] = {"nic_errors",
				CELL,
				WARNS,
				{"the interface counted errors during the runs",
				 "試行中にインターフェースがエラーを記録した"},
				{"errors:", "エラー:"}},
    [REPORT_FLAG_PAUSE_FRAMES] =
	{"pause_frames",
	 CELL,
	 WARNS,
	 {"PAUSE (flow control) frames were counted during the runs",
	  "試行中に PAUSE（フロー制御）フレームが記録された"},
	 {"PAUSE frames:", "PAUSE フレーム:"}},
    [REPORT_FLAG_RETRANSMITS] = {"retransmits",
				 CELL,
				 WARNS,
				 {"TCP retransmitted segments during the runs",
				  "試行中に TCP の再送が発生した"},
				 {"retransmits:", "再送:"}},
    [REPORT_FLAG_CAPTURE] = {"capture",
			     CELL,
			     WARNS,
			     {"a packet capture was running during the runs",
			      "試行中にパケットキャプチャが動作していた"},
			     {"capture running:", "キャプチャ動作中:"}},
    [REPORT_FLAG_CONTROLLER_LOADED] =
	{"controller_loaded",
	 CELL,
	 WARNS,
	 {"the machine running xrun was loaded: its 1-minute load average "
	  "exceeded its CPU count when runs of the cell ended, which can "
	  "lower what a loopback or namespace link measures",
	  "xrun を実行するマシンが高負荷: セルの試行終了時に 1 分間の"
	  "ロードアベレージが CPU 数を超えていた（ループバックや名前空間の"
	  "リンクでは測定値が下がりうる）"},
	 {"controller loaded:", "制御マシン高負荷:"}},
    [REPORT_FLAG_FACTS_CHANGED] =
	{"facts_changed",
	 CMP,
	 REFUSES,
	 {"host facts (driver, firmware, kernel%s) differ "
	  "between the sessions pooled in the comparison: no verdict unless "
	  "the plan accepts a sequential design",
	  "比較に含まれるセッション間でホスト情報（ドライバ、ファームウェア、"
	  "カーネル%s）が異なるため判定しない（accept: sequential "
	  "の場合を除く）"},
	 {"host facts changed:", "ホスト情報が変化:"},
	 0,
	 1},
    [REPORT_FLAG_TESTBED_SPLIT] =
	{"testbed_split",
	 CMP,
	 REFUSES,
	 {"the two sides ran on different testbeds (shards of `xrun run "
	  "--shard`): the testbed is confounded with the difference, so no "
	  "verdict is given; declare the comparison so that its blocks are "
	  "kept on one testbed (docs/shards.md)",
	  "両側が別のテストベッドで実行された（xrun run --shard のシャード）"
	  "ため、テストベッドの違いと差が区別できず判定しない。比較を宣言すれば"
	  "そのブロックは同じテストベッドで実行される（docs/shards.md）"},
	 {"testbeds differ:", "テストベッドが異なる:"}},
    [REPORT_FLAG_UNSTABLE] = {"unstable",
			      CELL,
			      WARNS,
			      {"unstable cell: coefficient of variation >= 10%",
			       "不安定なセル: 変動係数が 10% 以上"},
			      {"unstable:", "不安定:"}},
    [REPORT_FLAG_PRECISION_NOT_REACHED] =
	{"precision_not_reached",
	 CELL,
	 WARNS,
	 {"desired precision not achieved: the cell's repetitions were sized "
	  "from its pilot and stopped at max with the 95% interval wider "
	  "than the plan's precision",
	  "目標精度に達していない: パイロットから試行回数を決めたが、max "
	  "で止まり 95% 区間が計画の精度より広い"},
	 {"precision not achieved:", "目標精度に未達:"}},
    [REPORT_FLAG_DRIFT] =
	{"drift",
	 BOTH,
	 REFUSES,
	 {"drift: the cell's values trend from its first to its last run "
	  "beyond noise; a comparison using the cell gets no verdict unless "
	  "its runs were interleaved (the position term absorbs the drift) "
	  "or the plan accepts a sequential design",
	  "ドリフト: 最初と最後の試行の間で値が雑音を超えて変化している。"
	  "このセルを使う比較は、交互実行（実行順の項がドリフトを吸収）か "
	  "accept: sequential の場合を除き判定しない"},
	 {"drift:", "ドリフト:"}},
    [REPORT_FLAG_OUTLIER] =
	{"outlier",
	 BOTH,
	 WARNS,
	 {"outlier: a run's modified z score (median/MAD, Iglewicz and "
	  "Hoaglin) exceeds the cut that 5% of clean normal cells of its "
	  "size exceed (4.1 at 16 runs, 6.9 at 4); the robust estimate "
	  "(Hodges-Lehmann, Mann-Whitney p) is shown where it disagrees",
	  "外れ値: 修正 z 得点（中央値/MAD、Iglewicz と "
	  "Hoaglin）が、同じ試行数の"
	  "正規ノイズのみのセルの 5% が超える値（16 回で 4.1、4 回で 6.9）を"
	  "超える試行がある。頑健な推定"
	  "（Hodges-Lehmann、Mann-Whitney の p）が異なる場合は併記する"},
	 {"outlier:", "外れ値:"},
	 1},
    [REPORT_FLAG_ZERO_VARIANCE] =
	{"zero_variance",
	 CMP,
	 REFUSES,
	 {"zero variance: the runs repeat the same values, so the interval "
	  "has zero width and proves nothing about the noise",
	  "分散が 0: 同じ値の繰り返しで区間の幅が 0 になり、雑音について何も"
	  "示さない"},
	 {"zero variance:", "分散 0:"}},
    [REPORT_FLAG_NONPOSITIVE] =
	{"nonpositive",
	 CMP,
	 REFUSES,
	 {"zero or negative values: the log-scale method needs positive "
	  "values",
	  "0 以下の値があり、対数尺度の手法を適用できない"},
	 {"values <= 0:", "0 以下の値:"}},
    [REPORT_FLAG_ACCEPTED_SEQUENTIAL] =
	{"accepted_sequential",
	 CMP,
	 WARNS,
	 {"the plan accepts a sequential design for this comparison "
	  "(report.compare accept: sequential): drift, a change of host "
	  "facts or the order may account for part of the difference",
	  "計画がこの比較に順次実行を受け入れている（report.compare の "
	  "accept: sequential）: ドリフト、ホスト情報の変化、実行順が差の一部を"
	  "説明しうる"},
	 {"sequential, accepted:", "順次実行（受け入れ済み）:"},
	 1},
    [REPORT_FLAG_CONFIGURATION] =
	{"configuration",
	 CMP,
	 WARNS,
	 {"configuration comparison: the two sides differ in several "
	  "factors the plan names together, so the effect belongs to the "
	  "combination, not to any one factor",
	  "構成の比較: 計画が組にして指定した複数の因子が異なるため、差は"
	  "組み合わせ全体の効果であり、どれか一つの因子の効果ではない"},
	 {"configuration comparison of", "構成の比較:"},
	 1},
    [REPORT_FLAG_MULTIPLICITY] =
	{"multiplicity",
	 CMP,
	 WARNS,
	 {"many comparisons: each verdict is at 95%, so among this many "
	  "about one in twenty true null differences is called a difference "
	  "by chance alone (no correction unless --adjust holm says so)",
	  "比較の数が多い: 各判定は 95% 水準のため、真に差がない比較でも"
	  "約 20 件に 1 件は偶然に差ありと判定される（--adjust holm "
	  "がなければ補正なし）"},
	 {"one of many comparisons:", "多数の比較の一つ:"}},
};

const char *report_flag_code_name(enum report_flag_code c)
{
	if ((unsigned)c >= REPORT_FLAG_COUNT || !flag_rows[c].code)
		return "unknown";
	return flag_rows[c].code;
}

int report_flag_by_name(const char *name)
{
	int c;
	for (c = 0; name && c < REPORT_FLAG_COUNT; c++)
		if (flag_rows[c].code && !strcmp(flag_rows[c].code, name))
			return c;
	return -1;
}

enum report_flag_scope report_flag_scope(enum report_flag_code c)
{
	if ((unsigned)c >= REPORT_FLAG_COUNT)
		return REPORT_SCOPE_CELL;
	return flag_rows[c].scope;
}

int report_flag_refuses(enum report_flag_code c)
{
	if ((unsigned)c >= REPORT_FLAG_COUNT)
		return 0;
	return flag_rows[c].refuses;
}

/* Text t of flag c in lang with each engine's version fact for its %s:
 * made once (the engines' rows do not change), kept for the program. */
static const char *with_versions(enum report_flag_code c, enum report_lang lang,
				 const char *t)
{
	static char made[REPORT_FLAG_COUNT][REPORT_LANG_COUNT][512];
	const struct engine_version *v;
	struct buf names = BUF_INIT;
	if (made[c][lang][0])
		return made[c][lang];
	for (int i = 0; (v = engine_version_at(i)); i++)
		buf_addf(&names, version_word[lang], v->label);
	snprintf(made[c][lang], sizeof made[c][lang], t,
		 names.s ? names.s : "");
	buf_release(&names);
	return made[c][lang];
}

const char *report_flag_text(enum report_flag_code c, enum report_lang lang)
{
	const char *t;
	if ((unsigned)c >= REPORT_FLAG_COUNT)
		return "unknown flag";
	if ((unsigned)lang >= REPORT_LANG_COUNT)
		lang = REPORT_LANG_EN;
	t = flag_rows[c].text[lang];
	t = t ? t : flag_rows[c].text[REPORT_LANG_EN];
	if (t && flag_rows[c].versions)
		return with_versions(c, lang, t);
	return t ? t : "unknown flag";
}

const char *report_flag_short(enum report_flag_code c, enum report_lang lang)
{
	const char *t;
	if ((unsigned)c >= REPORT_FLAG_COUNT)
		return "unknown flag";
	if ((unsigned)lang >= REPORT_LANG_COUNT)
		lang = REPORT_LANG_EN;
	t = flag_rows[c].short_text[lang];
	return t ? t : report_flag_code_name(c);
}

int report_flag_in_cell(enum report_flag_code c)
{
	if ((unsigned)c >= REPORT_FLAG_COUNT)
		return 0;
	return flag_rows[c].in_cell;
}
