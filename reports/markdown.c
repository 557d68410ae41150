/* reports/markdown.c - the report as GitHub-flavoured markdown: the same
 * content as the text report, one heading per job, GitHub tables
 * (https://github.github.com/gfm/#tables-extension-).  Markdown tables
 * cannot hold blank lines, so the groups of the text report are only
 * kept as row order.  The environment and reproducer sections of the
 * runner's report.md read the typed campaign metadata
 * (results/campaign_info.h, kb_rmodel.campaign), never the jansson
 * tree. */
#include "reports/table.h"
#include "reports/plots.h"
#include "results/rmodel.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Write s with the characters markdown would interpret escaped (the &
 * of an entity and GFM's strikethrough ~ too), a tab or line break as a
 * blank and any other control character (lib/str.h kb_control_len():
 * ESC in a name from a results file) as '?'. */
static void md_put(FILE *out, const char *s)
{
	size_t k;

	for (; *s; s++) {
		if ((k = kb_control_len(s))) {
			fputc(strchr("\t\n\r", *s) ? ' ' : '?', out);
			s += k - 1;
			continue;
		}
		if (strchr("\\`*_[]<>|#&~", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* Write s as it is (code: a command line, a job file), but a control
 * character other than a line break shown as '?' (kb_xstr_shown());
 * s is freed. */
static void md_code(FILE *out, char *s)
{
	char *c = kb_xstr_shown(s, "\n");

	fputs(c, out);
	free(c);
	free(s);
}

/* The longest run of backticks in s. */
static size_t md_ticks(const char *s)
{
	size_t n, most = 0;

	for (; *s; s++) {
		for (n = 0; s[n] == '`'; n++)
			;
		if (n > most)
			most = n;
		s += n ? n - 1 : 0;
	}
	return most;
}

/* s as an inline code span (CommonMark): fenced by one backtick more
 * than its longest run of them, with a blank inside where s begins or
 * ends with one; control characters as '?' (a tunable value `id` in
 * `running,NM=`id`` ended the span early). */
static void md_code_span(FILE *out, const char *s)
{
	char *c = kb_xstr_shown(s, "");
	size_t k, n = md_ticks(c) + 1;
	int pad = *c == '`' || (*c && c[strlen(c) - 1] == '`');

	for (k = 0; k < n; k++)
		fputc('`', out);
	fputs(pad ? " " : "", out);
	fputs(c, out);
	fputs(pad ? " " : "", out);
	for (k = 0; k < n; k++)
		fputc('`', out);
	free(c);
}

/* text (freed) as a fenced code block of language lang, its last line
 * ended: the fence ``` or, when text holds a run of backticks as long,
 * one backtick longer (a ``` in a job file closed the block early). */
static void md_block(FILE *out, const char *lang, char *text)
{
	size_t k, n = md_ticks(text) + 1;
	int end;

	if (n < 3)
		n = 3;
	for (k = 0; k < n; k++)
		fputc('`', out);
	fprintf(out, "%s\n", lang);
	end = *text && text[strlen(text) - 1] != '\n';
	md_code(out, text);	/* frees text */
	if (end)
		fputc('\n', out);
	for (k = 0; k < n; k++)
		fputc('`', out);
	fputc('\n', out);
}

static void md_table(FILE *out, const struct kb_table *t)
{
	size_t r, c, i;

	if (t->title[0]) {
		fputs("**", out);
		md_put(out, t->title);
		fputs("**\n\n", out);
	}
	if (t->ncols) {
		fputc('|', out);
		for (c = 0; c < t->ncols; c++) {
			fputc(' ', out);
			md_put(out, t->cols[c].head);
			fputs(" |", out);
		}
		fputs("\n|", out);
		for (c = 0; c < t->ncols; c++)
			fputs(t->cols[c].right ? " --: |" : " :-- |", out);
		fputc('\n', out);
		for (r = 0; r < t->nrows; r++) {
			fputc('|', out);
			for (c = 0; c < t->ncols; c++) {
				/* significant cells in bold */
				int b = t->rows[r].strong &&
					t->rows[r].strong[c] &&
					t->rows[r].cells[c][0];

				fputs(b ? " **" : " ", out);
				md_put(out, t->rows[r].cells[c]);
				fputs(b ? "** |" : " |", out);
			}
			fputc('\n', out);
		}
	}
	for (i = 0; i < t->nnotes; i++) {
		if (i || t->title[0] || t->ncols)	/* notes alone: after
							 * the job's heading */
			fputc('\n', out);
		md_put(out, t->notes[i]);
		fputc('\n', out);
	}
}

static void md_kv(FILE *out, const char *key, const char *val)
{
	if (!val)
		return;
	fputs("- ", out);
	md_put(out, key);
	fputs(": ", out);
	md_put(out, val);
	fputc('\n', out);
}

/* "N run(s) failed:" and one item per failed run of job j */
static void md_failures(FILE *out, const struct kb_report_job *j)
{
	size_t f;

	fprintf(out, "\n%zu run(s) failed:\n\n", j->nfailures);
	for (f = 0; f < j->nfailures; f++) {
		fputs("- ", out);
		md_put(out, j->failures[f]);
		fputc('\n', out);
	}
}

/* The runs of job j left out of the statistics and those flagged. */
static void md_run_notes(FILE *out, const struct kb_report_job *j)
{
	size_t f;

	if (j->nexcluded) {
		fprintf(out, "\n%zu run(s) left out of the statistics:\n\n",
			j->nexcluded);
		for (f = 0; f < j->nexcluded; f++) {
			fputs("- ", out);
			md_put(out, j->excluded[f]);
			fputc('\n', out);
		}
	}
	if (j->nflagged) {
		fprintf(out, "\n%zu run(s) flagged (counted):\n\n",
			j->nflagged);
		for (f = 0; f < j->nflagged; f++) {
			fputs("- ", out);
			md_put(out, j->flagged[f]);
			fputc('\n', out);
		}
	}
}

static void md_environment(FILE *out, const struct kb_rcampaign *c);

int report_markdown(FILE *out, const struct kb_report *r,
		    const struct kb_rmodel *m)
{
	const struct kb_report_job *j;
	size_t i, k;

	fputs("# ", out);
	md_put(out, r->title);
	fputs("\n\n", out);
	for (i = 0; i < r->nheader; i++)
		md_kv(out, r->keys[i], r->vals[i]);
	/* campaigns measured separately: where each ran is part of the
	 * result */
	if (m->campaign.merged_from.n > 1)
		md_environment(out, &m->campaign);
	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		fputs("\n## ", out);
		md_put(out, j->name);
		fputc('\n', out);
		for (k = 0; k < j->ntables; k++) {
			fputc('\n', out);
			md_table(out, j->tables[k]);
			if (!k && j->nfailures)	/* under the first table */
				md_failures(out, j);
			if (!k)
				md_run_notes(out, j);
		}
		if (!j->ntables && j->nfailures)
			md_failures(out, j);
		if (!j->ntables)
			md_run_notes(out, j);
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- the full report.md: environment, tables, plots, reproducers ---- */

/* vm variants: each kernel as the guest saw it, how it was booted, and
 * the QEMU command line that reproduces the boot (runner/driver_vm.c). */
static void md_vm_kernels(FILE *out, const struct kb_renv *env)
{
	const struct kb_rvm_variant *vr;
	char *s;
	size_t v, i;

	if (!env->nvm_variants)
		return;
	fputs("\n### Kernels under test (method = vm)\n", out);
	for (v = 0; v < env->nvm_variants; v++) {
		vr = &env->vm_variants[v];
		fputs("\n#### ", out);
		md_put(out, vr->name);
		fputs("\n\n", out);
		md_kv(out, "uname -r (guest)", vr->guest_release ?:
		      vr->release);
		md_kv(out, "/proc/version (guest)",
		      vr->guest_proc_version ?: "n/a (no run reported)");
		md_kv(out, "Kernel", vr->kernel);
		if (vr->package) {
			s = kb_xasprintf("%s %s", vr->package,
					 vr->package_version ?: "");
			md_kv(out, "Package", s);
			free(s);
		}
		md_kv(out, "Image", vr->image);
		md_kv(out, "Image sha256", vr->image_sha256);
		s = kb_xasprintf("%s (asked: %s; %s)", vr->accel ?: "n/a",
				 vr->accel_requested ?: "auto",
				 vr->accel_reason ?: "");
		md_kv(out, "Accelerator", s);
		free(s);
		s = kb_xasprintf("%lld vCPUs, %lld MiB", vr->cpus,
				 vr->memory_mib);
		md_kv(out, "Guest", s);
		free(s);
		if (vr->nullblk_params)
			md_kv(out, "null_blk parameters",
			      *vr->nullblk_params ? vr->nullblk_params :
			      "(defaults)");
		md_kv(out, "QEMU", env->vm_qemu_version);
		if (vr->qemu_argv.n) {
			fputs("\n```sh\n", out);
			for (i = 0; i < vr->qemu_argv.n; i++) {
				fputs(i ? " " : "", out);
				kb_sh_word(out, vr->qemu_argv.v[i] ?: "");
			}
			fputs("\n```\n", out);
		}
	}
}

/* The items of one environment (campaign.json "environment") and the
 * campaign's target. */
static void md_env_items(FILE *out, const struct kb_rcampaign *c,
			 const struct kb_renv *env)
{
	char *s;

	if (env->vm_timing_note ||
	    (env->vm_accel && !strcmp(env->vm_accel, "tcg"))) {
		fputs("> **Warning: emulated (TCG).** At least one variant "
		      "booted in QEMU without KVM: ", out);
		md_put(out, env->vm_timing_note ?:
		       "timings are not representative");
		fputs(".\n\n", out);
	}
	md_kv(out, "uname -a", env->uname);
	if (env->kernel_release) {
		s = kb_xasprintf("%s %s", env->kernel_release,
				 env->kernel_version ?: "");
		md_kv(out, "Running kernel", s);
		free(s);
	}
	if (env->cpu_model) {
		s = env->has_cpus ? kb_xasprintf("%s (%lld CPUs)",
			env->cpu_model, env->cpus) :
			kb_xstrdup(env->cpu_model);
		md_kv(out, "CPU", s);
		free(s);
	}
	md_kv(out, "CPU frequency governor", env->governor ?:
	      "n/a (no cpufreq)");
	md_kv(out, "Memory", env->memory_total);
	md_kv(out, "Device (target)", c->target);
	md_kv(out, "fio", env->fio_version);
	md_kv(out, "perf", env->perf_version);
	md_kv(out, "kbench", env->kbench_version);
	md_kv(out, "Host", env->hostname);
	md_kv(out, "Kernel command line (host)", env->cmdline);
	md_vm_kernels(out, env);
}

/* "## Environment": the campaign's; for campaigns merged by
 * results_merge() (campaign.environments, by campaign name) one section
 * when all are equal, else one subsection per campaign. */
static void md_environment(FILE *out, const struct kb_rcampaign *c)
{
	size_t i;

	fputs("\n## Environment\n\n", out);
	if (c->nenvs < 2 || c->merged_from.n < 2) {
		md_env_items(out, c, &c->env);
		return;
	}
	if (c->envs_equal) {
		fputs("The same for every campaign (", out);
		for (i = 0; i < c->nenvs; i++) {
			md_put(out, c->env_names[i]);
			if (i + 1 < c->nenvs)
				fputs(", ", out);
		}
		fputs(").\n\n", out);
		md_env_items(out, c, &c->envs[0]);
		return;
	}
	for (i = 0; i < c->nenvs; i++) {
		fputs(i ? "\n### " : "### ", out);
		md_put(out, c->env_names[i]);
		fputs("\n\n", out);
		md_env_items(out, c, &c->envs[i]);
	}
}

/* KBENCH_SIZE for the reproducer (malloc'd): the size every run was
 * given (run.json target_size_bytes, runner/run_exec.c; the first run
 * that recorded it), else loop:SIZE's (campaign.json writes loop:NM,
 * runner/campaign.c), else a command that prints the size of the
 * target (campaigns recorded before the size was). */
static char *md_target_size(const struct kb_rmodel *m, const char *target)
{
	unsigned long long n;
	char *end, *buf;
	size_t i, len;
	FILE *f;

	for (i = 0; i < m->nruns; i++)
		if (m->runs[i].info.target_size_bytes > 0)
			return kb_xasprintf("%lld",
					    m->runs[i].info.target_size_bytes);
	if (target && !strncmp(target, "loop:", 5)) {
		n = strtoull(target + 5, &end, 10);
		if (end != target + 5 && (!strcmp(end, "M") ||
					  !strcmp(end, "MiB")))
			return kb_xasprintf("%llu", n << 20);
		if (end != target + 5 && (!strcmp(end, "G") ||
					  !strcmp(end, "GiB")))
			return kb_xasprintf("%llu", n << 30);
	}
	if (target && !strncmp(target, "file:", 5)) {
		f = kb_xmemstream(&buf, &len);
		fputs("$(stat -c %s ", f);
		kb_sh_word(f, target + 5);
		fputc(')', f);
		fclose(f);
		return buf;
	}
	return kb_xstrdup("$(blockdev --getsize64 \"$KBENCH_TARGET\")");
}

/* $sys set to the sysfs directory of the target's disk, as the runner
 * finds it (runner/target.c blockdev_sysfs()): the device the path
 * names (a /dev/disk/by-id link, /dev/mapper/NAME: dm-N), and for a
 * partition its whole disk (queue/ is the disk's).  "/sys/block/$(basename
 * $KBENCH_TARGET)" named no directory for any of these. */
static void md_sys_dir(FILE *f, const char *target)
{
	fputs("sys=/sys/class/block/$(basename \"$(readlink -f ", f);
	if (target && target[0] == '/')
		kb_sh_word(f, target);
	else
		fputs("\"$KBENCH_TARGET\"", f);
	fputs(")\"); [ ! -e \"$sys/partition\" ] || sys=$sys/..\n", f);
}

/* The command lines that reproduce one run of each configuration: the
 * boot, the tunable writes, fio as runner/run_exec.c starts it. */
static void md_reproducers(FILE *out, const struct kb_rmodel *m)
{
	const struct kb_rcampaign *c = &m->campaign;
	const struct kb_rconfig *cfg;
	const struct kb_rtunable *t;
	const char *target = c->target, *job, *text, *v;
	char *size = md_target_size(m, target), *buf, *w;
	size_t i, k, len, sys;
	FILE *f;

	fputs("\n## Reproduce\n\n", out);
	fputs("Each run is fio started as below (runner/run_exec.c) with the "
	      "job file of its job; KBENCH_TARGET is the target device "
	      "(a loop device for `loop:SIZE`), KBENCH_SIZE its size in "
	      "bytes, KBENCH_RUNTIME the campaign's runtime.\n", out);
	for (i = 0; i < c->jobs.n; i++) {
		job = c->jobs.v[i];
		if (!job)
			continue;
		fputs("\n### Job ", out);
		md_put(out, job);
		fputs("\n\n", out);
		f = kb_xmemstream(&buf, &len);
		fputs("KBENCH_TARGET=", f);
		if (target && target[0] == '/')
			kb_sh_word(f, target);
		else
			fprintf(f, "<device of %s>", target ? target :
				"the target");
		/* runtime_s: whole seconds (campaign.json writes an
		 * integer) */
		fprintf(f, " KBENCH_SIZE=%s KBENCH_RUNTIME=%lld \\\n  fio "
			"--output-format=json+ --output=fio.json ", size,
			isfinite(c->runtime_s) ? (long long)c->runtime_s : 0LL);
		w = kb_xasprintf("%s.fio", job);
		kb_sh_word(f, w);
		free(w);
		fputc('\n', f);
		fclose(f);
		md_block(out, "sh", buf);
		text = kb_rcampaign__job_file(c, job);
		if (text) {
			fputc('\n', out);
			md_block(out, "ini", kb_xstrdup(text));
		} else {
			fputs("\n(the job file is not in these results: see "
			      "profiles/", out);
			md_put(out, job);
			fputs(".fio of the campaign directory)\n", out);
		}
	}
	free(size);
	fputs("\n### Configurations\n", out);
	for (i = 0; i < c->nconfigs; i++) {
		cfg = &c->configs[i];
		if (!cfg->id)
			continue;
		fputc('\n', out);
		md_code_span(out, cfg->id);
		fputs(" (method ", out);
		md_put(out, cfg->method ? cfg->method : "local");
		fputs(", kernel ", out);
		md_put(out, cfg->release ? cfg->release : "as running");
		fputs(")\n\n", out);
		/* a comment: one line whatever the command line holds */
		f = kb_xmemstream(&buf, &len);
		w = NULL;
		if (cfg->cmdline)
			fprintf(f, "# kernel command line: %s\n",
				w = kb_xstr_shown(cfg->cmdline, ""));
		else if (!cfg->method || !strcmp(cfg->method, "local"))
			fprintf(f, "# kernel command line (running): %s\n",
				w = kb_xstr_shown(c->env.cmdline ?: "n/a", ""));
		free(w);
		/* each value and path one sh word: a value a|b or $(x)
		 * pasted unquoted ran another command */
		for (sys = 0, k = 0; k < c->ntunables; k++) {
			t = &c->tunables[k];
			v = kb_rconfig__tunable(cfg, t->label ? t->label : "");
			if (!v || !t->path)
				continue;
			if (t->path[0] != '/' && !sys++)
				md_sys_dir(f, target);
			fputs("echo ", f);
			kb_sh_word(f, v);
			fputs(t->path[0] == '/' ? " > " : " > \"$sys\"/", f);
			kb_sh_word(f, t->path);
			fputc('\n', f);
		}
		fclose(f);
		md_block(out, "sh", buf);
	}
}

/* Plot kinds of reports/plots.h, in the order shown. */
static const char *const plot_kinds[][2] = {
	{ "bar", "mean per configuration, 95% CI" },
	{ "iterations", "every timed iteration" },
	{ "scaling", "scaling" },
	{ "cdf", "completion latency CDF" },
};

/* s as a link destination: every byte but letters, digits and /._~-
 * percent-encoded (RFC 3986), so that a blank or a parenthesis of the
 * plot directory (--plots 'run 2') does not end the link. */
static void md_url(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("/._~-", *s) || (*s >= 'a' && *s <= 'z') ||
		    (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
			fputc(*s, out);
		else
			fprintf(out, "%%%02X", (unsigned char)*s);
	}
}

static void md_plots(FILE *out, const char *job,
		     const struct report_opts *opts)
{
	size_t k;
	char *name, *path;

	if (!opts || !opts->plots_dir || !opts->plots_href)
		return;
	for (k = 0; k < sizeof(plot_kinds) / sizeof(plot_kinds[0]); k++) {
		name = plots_file_name(job, plot_kinds[k][0], "svg");
		path = kb_path_join(opts->plots_dir, name);
		if (kb_exists(path)) {
			fputs("\n![", out);
			md_put(out, job);
			fputs(": ", out);
			md_put(out, plot_kinds[k][1]);
			fputs("](", out);
			md_url(out, opts->plots_href);
			fputc('/', out);
			md_url(out, name);
			fputs(")\n", out);
		}
		free(path);
		free(name);
	}
}

int report_markdown_full(FILE *out, const struct kb_report *r,
			 const struct kb_rmodel *m,
			 const struct report_opts *opts)
{
	const struct kb_report_job *j;
	size_t i, k;

	if (!opts || (!opts->full_markdown && !opts->plots_href))
		return report_markdown(out, r, m);
	fputs("# ", out);
	md_put(out, r->title);
	fputs("\n\n", out);
	for (i = 0; i < r->nheader; i++)
		md_kv(out, r->keys[i], r->vals[i]);
	if (opts->full_markdown || m->campaign.merged_from.n > 1)
		md_environment(out, &m->campaign);
	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		fputs("\n## ", out);
		md_put(out, j->name);
		fputc('\n', out);
		for (k = 0; k < j->ntables; k++) {
			fputc('\n', out);
			md_table(out, j->tables[k]);
		}
		if (j->nfailures)
			md_failures(out, j);
		md_run_notes(out, j);
		md_plots(out, j->name, opts);
	}
	if (opts->full_markdown)
		md_reproducers(out, m);
	return ferror(out) ? -EIO : 0;
}
