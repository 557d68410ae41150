/* reports/markdown.c - the report as GitHub-flavoured markdown: the same
 * content as the text report, one heading per job, GitHub tables
 * (https://github.github.com/gfm/#tables-extension-).  Markdown tables
 * cannot hold blank lines, so the groups of the text report are only
 * kept as row order. */
#include "reports/table.h"
#include "reports/plots.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Write s with the characters markdown would interpret escaped. */
static void md_put(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', out);
		if ((unsigned char)*s < 0x20)
			fputc(' ', out);
		else
			fputc(*s, out);
	}
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

static void md_environment(FILE *out, json_t *results);

int report_markdown(FILE *out, const struct kb_report *r, json_t *results)
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
	if (json_array_size(json_object_get(json_object_get(results,
			"campaign"), "merged_from")) > 1)
		md_environment(out, results);
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

static const char *env_str(json_t *env, const char *key)
{
	return json_string_value(json_object_get(env, key));
}

/* vm variants: each kernel as the guest saw it, how it was booted, and
 * the QEMU command line that reproduces the boot (runner/driver_vm.c). */
static void md_vm_kernels(FILE *out, json_t *vm)
{
	json_t *vars = json_object_get(vm, "variants"), *vr, *a;
	const char *name;
	char *s;
	size_t i;

	if (!json_object_size(vars))
		return;
	fputs("\n### Kernels under test (method = vm)\n", out);
	json_object_foreach(vars, name, vr) {
		fputs("\n#### ", out);
		md_put(out, name);
		fputs("\n\n", out);
		md_kv(out, "uname -r (guest)", env_str(vr, "guest_release") ?:
		      env_str(vr, "release"));
		md_kv(out, "/proc/version (guest)",
		      env_str(vr, "guest_proc_version") ?: "n/a (no run "
		      "reported)");
		md_kv(out, "Kernel", env_str(vr, "kernel"));
		if (env_str(vr, "package")) {
			s = kb_xasprintf("%s %s", env_str(vr, "package"),
					 env_str(vr, "package_version") ?: "");
			md_kv(out, "Package", s);
			free(s);
		}
		md_kv(out, "Image", env_str(vr, "image"));
		md_kv(out, "Image sha256", env_str(vr, "image_sha256"));
		s = kb_xasprintf("%s (asked: %s; %s)", env_str(vr, "accel") ?:
				 "n/a", env_str(vr, "accel_requested") ?: "auto",
				 env_str(vr, "accel_reason") ?: "");
		md_kv(out, "Accelerator", s);
		free(s);
		s = kb_xasprintf("%lld vCPUs, %lld MiB",
			(long long)json_integer_value(json_object_get(vr, "cpus")),
			(long long)json_integer_value(json_object_get(vr,
							"memory_mib")));
		md_kv(out, "Guest", s);
		free(s);
		if (env_str(vr, "nullblk_params"))
			md_kv(out, "null_blk parameters",
			      *env_str(vr, "nullblk_params") ?
			      env_str(vr, "nullblk_params") : "(defaults)");
		md_kv(out, "QEMU", env_str(vm, "qemu_version"));
		a = json_object_get(vr, "qemu_argv");
		if (json_array_size(a)) {
			fputs("\n```sh\n", out);
			for (i = 0; i < json_array_size(a); i++) {
				const char *w = json_string_value(
					json_array_get(a, i)) ?: "";

				fputs(i ? " " : "", out);
				if (!*w || strpbrk(w, " \t\"'$\\;&|<>*?()")) {
					/* sh single quotes, ' as '\'' */
					fputc('\'', out);
					for (; *w; w++)
						fputs(*w == '\'' ? "'\\''" :
						      (char[2]){ *w, 0 }, out);
					fputc('\'', out);
				} else {
					fputs(w, out);
				}
			}
			fputs("\n```\n", out);
		}
	}
}

/* The items of one environment (campaign.json "environment") and the
 * campaign's target. */
static void md_env_items(FILE *out, json_t *camp, json_t *env)
{
	json_t *vm = json_object_get(env, "vm");
	char *s;

	if (json_is_string(json_object_get(vm, "timing_note")) ||
	    (env_str(vm, "accel") && !strcmp(env_str(vm, "accel"), "tcg"))) {
		fputs("> **Warning: emulated (TCG).** At least one variant "
		      "booted in QEMU without KVM: ", out);
		md_put(out, env_str(vm, "timing_note") ? env_str(vm,
		       "timing_note") : "timings are not representative");
		fputs(".\n\n", out);
	}
	md_kv(out, "uname -a", env_str(env, "uname"));
	if (env_str(env, "kernel_release")) {
		s = kb_xasprintf("%s %s", env_str(env, "kernel_release"),
				 env_str(env, "kernel_version") ?: "");
		md_kv(out, "Running kernel", s);
		free(s);
	}
	if (env_str(env, "cpu_model")) {
		json_t *n = json_object_get(env, "cpus");

		s = json_is_integer(n) ? kb_xasprintf("%s (%lld CPUs)",
			env_str(env, "cpu_model"),
			(long long)json_integer_value(n)) :
			kb_xstrdup(env_str(env, "cpu_model"));
		md_kv(out, "CPU", s);
		free(s);
	}
	md_kv(out, "CPU frequency governor", env_str(env, "governor") ?:
	      "n/a (no cpufreq)");
	md_kv(out, "Memory", env_str(env, "memory_total"));
	md_kv(out, "Device (target)", json_string_value(json_object_get(camp,
	      "target")));
	md_kv(out, "fio", env_str(env, "fio_version"));
	md_kv(out, "perf", env_str(env, "perf_version"));
	md_kv(out, "kbench", env_str(env, "kbench_version"));
	md_kv(out, "Host", env_str(env, "hostname"));
	md_kv(out, "Kernel command line (host)", env_str(env, "cmdline"));
	md_vm_kernels(out, vm);
}

/* "## Environment": the campaign's; for campaigns merged by
 * results_merge() (campaign.environments, by campaign name) one section
 * when all are equal, else one subsection per campaign. */
static void md_environment(FILE *out, json_t *results)
{
	json_t *camp = json_object_get(results, "campaign");
	json_t *envs = json_object_get(camp, "environments"), *env, *first;
	const char *name;
	int same = 1;

	fputs("\n## Environment\n\n", out);
	if (json_object_size(envs) < 2 ||
	    json_array_size(json_object_get(camp, "merged_from")) < 2) {
		md_env_items(out, camp, json_object_get(camp, "environment"));
		return;
	}
	first = json_object_iter_value(json_object_iter(envs));
	json_object_foreach(envs, name, env)
		same &= json_equal(env, first);
	if (same) {
		fputs("The same for every campaign (", out);
		json_object_foreach(envs, name, env) {
			md_put(out, name);
			if (json_object_iter_next(envs, json_object_key_to_iter(
					name)))
				fputs(", ", out);
		}
		fputs(").\n\n", out);
		md_env_items(out, camp, first);
		return;
	}
	json_object_foreach(envs, name, env) {
		fputs(name == json_object_iter_key(json_object_iter(envs)) ?
		      "### " : "\n### ", out);
		md_put(out, name);
		fputs("\n\n", out);
		md_env_items(out, camp, env);
	}
}

/* KBENCH_SIZE for the reproducer (malloc'd): the size every run was
 * given (run.json target_size_bytes, runner/run_exec.c; the first run
 * that recorded it), else loop:SIZE's (campaign.json writes loop:NM,
 * runner/campaign.c), else a command that prints the size of the
 * target (campaigns recorded before the size was). */
static char *md_target_size(json_t *results, const char *target)
{
	json_t *run;
	size_t i;
	unsigned long long n;
	char *end;

	json_array_foreach(json_object_get(results, "runs"), i, run)
		if (json_integer_value(json_object_get(run,
				       "target_size_bytes")) > 0)
			return kb_xasprintf("%lld", (long long)
				json_integer_value(json_object_get(run,
				"target_size_bytes")));
	if (target && !strncmp(target, "loop:", 5)) {
		n = strtoull(target + 5, &end, 10);
		if (end != target + 5 && (!strcmp(end, "M") ||
					  !strcmp(end, "MiB")))
			return kb_xasprintf("%llu", n << 20);
		if (end != target + 5 && (!strcmp(end, "G") ||
					  !strcmp(end, "GiB")))
			return kb_xasprintf("%llu", n << 30);
	}
	if (target && !strncmp(target, "file:", 5))
		return kb_xasprintf("$(stat -c %%%%s '%s')", target + 5);
	return kb_xstrdup("$(blockdev --getsize64 \"$KBENCH_TARGET\")");
}

/* The command lines that reproduce one run of each configuration: the
 * boot, the tunable writes, fio as runner/run_exec.c starts it. */
static void md_reproducers(FILE *out, json_t *results)
{
	json_t *camp = json_object_get(results, "campaign");
	json_t *env = json_object_get(camp, "environment");
	json_t *files = json_object_get(camp, "job_files");
	json_t *tun = json_object_get(camp, "tunables"), *cfg, *t, *v;
	const char *target = json_string_value(json_object_get(camp,
					       "target"));
	const char *job, *text;
	char *size = md_target_size(results, target);
	size_t i, k;

	fputs("\n## Reproduce\n\n", out);
	fputs("Each run is fio started as below (runner/run_exec.c) with the "
	      "job file of its job; KBENCH_TARGET is the target device "
	      "(a loop device for `loop:SIZE`), KBENCH_SIZE its size in "
	      "bytes, KBENCH_RUNTIME the campaign's runtime.\n", out);
	json_array_foreach(json_object_get(camp, "jobs"), i, v) {
		job = json_string_value(v);
		if (!job)
			continue;
		fputs("\n### Job ", out);
		md_put(out, job);
		fputs("\n\n```sh\n", out);
		fprintf(out, "KBENCH_TARGET=%s%s%s KBENCH_SIZE=%s "
			"KBENCH_RUNTIME=%lld \\\n  fio --output-format=json+ "
			"--output=fio.json %s.fio\n```\n", target &&
			target[0] == '/' ? "" : "<device of ", target ? target
			: "the target", target && target[0] == '/' ? "" : ">",
			size, (long long)json_integer_value(
			json_object_get(camp, "runtime_s")), job);
		text = json_string_value(json_object_get(files, job));
		if (text) {
			fputs("\n```ini\n", out);
			fputs(text, out);
			if (*text && text[strlen(text) - 1] != '\n')
				fputc('\n', out);
			fputs("```\n", out);
		} else {
			fputs("\n(the job file is not in these results: see "
			      "profiles/", out);
			md_put(out, job);
			fputs(".fio of the campaign directory)\n", out);
		}
	}
	free(size);
	fputs("\n### Configurations\n", out);
	json_array_foreach(json_object_get(results, "configurations"), i, cfg) {
		const char *id = json_string_value(json_object_get(cfg, "id"));
		const char *method = json_string_value(json_object_get(cfg,
							"method"));
		const char *release = json_string_value(json_object_get(cfg,
							 "release"));
		const char *cmdline = json_string_value(json_object_get(cfg,
							 "cmdline"));

		if (!id)
			continue;
		fputs("\n`", out);
		fputs(id, out);
		fputs("`", out);
		fprintf(out, " (method %s, kernel %s)\n\n```sh\n",
			method ? method : "local",
			release ? release : "as running");
		if (cmdline)
			fprintf(out, "# kernel command line: %s\n", cmdline);
		else if (!method || !strcmp(method, "local"))
			fprintf(out, "# kernel command line (running): %s\n",
				env_str(env, "cmdline") ?: "n/a");
		json_array_foreach(tun, k, t) {
			const char *label = json_string_value(
				json_object_get(t, "label"));
			const char *path = json_string_value(
				json_object_get(t, "path"));

			v = json_object_get(json_object_get(cfg, "tunables"),
					    label ? label : "");
			if (!json_is_string(v) || !path)
				continue;
			if (path[0] == '/')
				fprintf(out, "echo %s > %s\n",
					json_string_value(v), path);
			else
				fprintf(out, "echo %s > /sys/block/"
					"$(basename $KBENCH_TARGET)/%s\n",
					json_string_value(v), path);
		}
		fputs("```\n", out);
	}
}

/* Plot kinds of reports/plots.h, in the order shown. */
static const char *const plot_kinds[][2] = {
	{ "bar", "mean per configuration, 95% CI" },
	{ "iterations", "every timed iteration" },
	{ "scaling", "scaling" },
	{ "cdf", "completion latency CDF" },
};

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
			fprintf(out, "](%s/%s)\n", opts->plots_href, name);
		}
		free(path);
		free(name);
	}
}

int report_markdown_full(FILE *out, const struct kb_report *r,
			 json_t *results, const struct report_opts *opts)
{
	const struct kb_report_job *j;
	size_t i, k;

	if (!opts || (!opts->full_markdown && !opts->plots_href))
		return report_markdown(out, r, results);
	fputs("# ", out);
	md_put(out, r->title);
	fputs("\n\n", out);
	for (i = 0; i < r->nheader; i++)
		md_kv(out, r->keys[i], r->vals[i]);
	if (opts->full_markdown ||
	    json_array_size(json_object_get(json_object_get(results,
			"campaign"), "merged_from")) > 1)
		md_environment(out, results);
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
		md_reproducers(out, results);
	return ferror(out) ? -EIO : 0;
}
