/* tests/test_records.c - results/records.c: the KVM probe's answer kept
 * for the campaign and for the machine (by boot id), boot timings and
 * their mean overhead (the ETA of boots), the tool-version cache, run.json
 * from its typed record (results/run_json.h), campaign.json's plan and
 * snapshot (results/campaign_json.h), state.json (results/state.h); and lib/proc.c's
 * kb_which.  Everything under a temporary KBENCH_RUN_DIR. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/json_file.h"
#include "results/records.h"
#include "results/campaign_json.h"
#include "results/run_json.h"
#include "results/state.h"

static char tmp[] = "/tmp/kbench-test-records.XXXXXX";

static int write_text(const char *path, const char *text)
{
	return kb_write_atomic(path, text, strlen(text));
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmp))
		return -1;
	setenv("KBENCH_RUN_DIR", tmp, 1);
	return 0;
}

static int teardown(void **state)
{
	char *cmd[] = { "rm", "-rf", tmp, NULL };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn(cmd, NULL, &r);
	unsetenv("KBENCH_RUN_DIR");
	return 0;
}

static void test_kvm_probe_campaign(void **state)
{
	char *dir = kb_path_join(tmp, "camp"), *cj, *why = NULL;
	int usable = -1;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	/* no campaign.json: nothing remembered, and saving fails */
	assert_int_equal(records_kvm_probe_campaign(dir, &usable, &why), 0);
	assert_true(records_kvm_probe_campaign_save(dir, 0, "x") < 0);
	cj = kb_path_join(dir, "campaign.json");
	assert_int_equal(write_text(cj, "{\"schema_version\": 1}\n"), 0);
	assert_int_equal(records_kvm_probe_campaign_save(dir, 0,
		"no kernel output within 20 s"), 0);
	assert_int_equal(records_kvm_probe_campaign(dir, &usable, &why), 1);
	assert_int_equal(usable, 0);
	assert_string_equal(why, "no kernel output within 20 s");
	free(why);
	free(cj);
	free(dir);
}

static void test_kvm_probe_machine_boot_id(void **state)
{
	char *path = kb_path_join(tmp, "kvm-probe.json"), *why = NULL;
	int usable = -1;

	(void)state;
	unlink(path);
	assert_int_equal(records_kvm_probe_machine(&usable, &why), 0);
	records_kvm_probe_machine_save(1, "banner after 0.4 s");
	assert_int_equal(records_kvm_probe_machine(&usable, &why), 1);
	assert_int_equal(usable, 1);
	assert_string_equal(why, "banner after 0.4 s");
	free(why);
	/* another boot of the machine: not this boot's answer */
	assert_int_equal(write_text(path, "{\"boot_id\": \"another\", "
		"\"usable\": false, \"reason\": \"r\"}"), 0);
	assert_int_equal(records_kvm_probe_machine(&usable, &why), 0);
	free(path);
}

static void test_boot_overhead(void **state)
{
	char *dir = kb_path_join(tmp, "bootcamp"), *b1, *b2, *b3;
	size_t n = 99;

	(void)state;
	b1 = kb_path_join(dir, "boots/001-a");
	b2 = kb_path_join(dir, "boots/002-b");
	b3 = kb_path_join(dir, "boots/003-c");
	assert_int_equal(records_boot_overhead_mean(dir, 4, &n), 0.0);
	assert_int_equal(n, 0);
	assert_int_equal(kb_mkdir_p(b1), 0);
	assert_int_equal(kb_mkdir_p(b2), 0);
	assert_int_equal(kb_mkdir_p(b3), 0);	/* no timing.json: skipped */
	/* 2 runs of 4 s + 30 s boot; 1 run + 20 s boot */
	assert_int_equal(records_boot_timing_save(b1, "tcg", 38, 2, 12.5, 13.0), 0);
	assert_int_equal(records_boot_timing_save(b2, "tcg", 24, 1, -1, -1), 0);
	assert_true(records_boot_overhead_mean(dir, 4, &n) == 25.0);
	assert_int_equal(n, 2);
	{	/* the first run's time is kept; a never-seen one null */
		char *t1 = kb_path_join(b1, "timing.json"), *txt = NULL;
		char *t2 = kb_path_join(b2, "timing.json");

		assert_int_equal(kb_read_file(t1, &txt, NULL, 1), 0);
		assert_non_null(strstr(txt, "\"first_run_s\": 13.0"));
		free(txt);
		assert_int_equal(kb_read_file(t2, &txt, NULL, 1), 0);
		assert_non_null(strstr(txt, "\"first_run_s\": null"));
		free(txt);
		free(t1);
		free(t2);
	}
	free(b1);
	free(b2);
	free(b3);
	free(dir);
}

static void test_tool_versions(void **state)
{
	char *v = NULL;

	(void)state;
	assert_int_equal(records_tool_version_get("/usr/bin/fio:1:2.0", &v), 0);
	records_tool_version_put("/usr/bin/fio:1:2.0", "fio-3.33");
	records_tool_version_put("/usr/bin/perf:3:4.0", "perf version 6.1");
	assert_int_equal(records_tool_version_get("/usr/bin/fio:1:2.0", &v), 1);
	assert_string_equal(v, "fio-3.33");
	free(v);
	/* the binary changed (another mtime): asked again */
	assert_int_equal(records_tool_version_get("/usr/bin/fio:1:9.0", &v), 0);
}

/* campaign.json environment.vm: a boot recorded, a later boot of the
 * same variant keeps what the guest reported, TCG wins the campaign's
 * accel, the deb: pin is found only for the same kernel = */
static void test_vm_variant(void **state)
{
	char *cj = kb_xasprintf("%s/campaign.json", tmp), *text = NULL;
	char *mj = kb_xasprintf("%s/metrics.json", tmp), *rel, *pv, *pkg;
	const char *argv[] = { "qemu-system-x86_64", "-m", "1024" };
	struct records_vm_variant v = {
		.name = "new", .kvm = 1, .accel_requested = "auto",
		.accel_reason = "probe ok", .cpus = 2, .memory_mib = 1024,
		.kernel = "deb:linux-image-6.12*", .package =
		"linux-image-6.12.9-amd64", .release = "6.12.9-amd64",
	};

	(void)state;
	assert_int_equal(write_text(cj, "{\"name\": \"t\"}"), 0);
	assert_int_equal(records_vm_variant_save(tmp, &v, "QEMU 7.2", "emu"), 0);
	assert_int_equal(records_vm_variant_set(tmp, "new", "guest_release",
						"6.12.9-amd64"), 0);
	assert_int_equal(records_vm_variant_set(tmp, "old", "x", "y"), -ENOENT);
	assert_int_equal(records_vm_variant_set_argv(tmp, "new", "qemu_argv",
						     argv, 3), 0);
	v.kvm = 0;
	v.accel_reason = "KVM unusable";
	assert_int_equal(records_vm_variant_save(tmp, &v, NULL, "emu"), 0);
	assert_int_equal(kb_read_file(cj, &text, NULL, 1), 0);
	assert_non_null(strstr(text, "\"guest_release\": \"6.12.9-amd64\""));
	assert_non_null(strstr(text, "\"timing_note\": \"emu\""));
	assert_non_null(strstr(text, "\"qemu_version\": \"QEMU 7.2\""));
	assert_non_null(strstr(text, "\"accel\": \"tcg\""));
	assert_null(strstr(text, "qemu_argv"));	/* a new boot's entry */
	free(text);
	pkg = records_vm_pinned_package(tmp, "new", "deb:linux-image-6.12*");
	assert_string_equal(pkg, "linux-image-6.12.9-amd64");
	free(pkg);
	assert_null(records_vm_pinned_package(tmp, "new", "deb:linux-image-amd64"));
	assert_null(records_vm_pinned_package(tmp, "other", v.kernel));

	assert_int_equal(records_run_guest_kernel(mj, &rel, &pv), 0);
	assert_int_equal(write_text(mj, "{\"guest_kernel\": \"6.1.0-1\", "
				    "\"guest_proc_version\": \"Linux version 6.1\"}"), 0);
	assert_int_equal(records_run_guest_kernel(mj, &rel, &pv), 1);
	assert_string_equal(rel, "6.1.0-1");
	assert_string_equal(pv, "Linux version 6.1");
	free(rel);
	free(pv);
	free(cj);
	free(mj);
}

static void test_which(void **state)
{
	char *p, *old = kb_xstrdup(getenv("PATH") ? getenv("PATH") : "");

	(void)state;
	setenv("PATH", "/nonexistent:/bin:/usr/bin", 1);
	p = kb_which("sh");
	assert_non_null(p);
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_null(kb_which("kbench-no-such-program"));
	p = kb_which("/bin/sh");
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_null(kb_which("/nonexistent/sh"));
	setenv("PATH", old, 1);
	free(old);
}

/* run.json: every member from its field, null where documented, hosts
 * only when asked for, the kernel's identity added. */
static void test_run_json(void **state)
{
	char *path = kb_path_join(tmp, "run.json");
	struct kb_spawn_result fio = { .exited = 0, .signal = 9,
		.timed_out = 1, .elapsed_s = 31.5, .group_left = 2,
		.group_signal = 9 };
	const struct results_run_host hosts[] = {
		{ "10.0.0.2", 8765, "/dev/nvme0n1", 1 },
		{ "10.0.0.3", 8766, NULL, -1 },
	};
	const struct results_tunable_read reads[] = {
		{ "/sys/block/loop0/queue/nomerges", "2" },
		{ "/sys/block/loop0/queue/rq_affinity", NULL },
	};
	struct results_run_json r = { .fio = &fio, .runtime_s = 30,
		.timeout_s = 31, .diskstats_name = "loop0",
		.target = "/dev/loop0", .target_size_bytes = 33554432,
		.warmup = 1, .perf_record = 1, .extra = "profiling",
		.start_unix_ns = 1764464314123456789LL, .record_hosts = 1,
		.hosts = hosts, .nhosts = 2, .tunables_after = reads,
		.ntunables_after = 2, .tunables_changed = "tunable NM changed",
		.kbench_cpu_during_run_s = 0.25 };
	json_t *j, *h;

	(void)state;
	fio.ru.ru_utime.tv_sec = 1;
	fio.ru.ru_utime.tv_usec = 500000;
	fio.ru.ru_maxrss = 4096;
	fio.parent_maxrss_kib = 8192;
	assert_int_equal(results_run_json_write(path, &r), 0);
	j = kb_json_load(path);
	assert_non_null(j);
	assert_true(json_is_null(json_object_get(j, "exit_status")));
	assert_int_equal(json_integer_value(json_object_get(j, "signal")), 9);
	assert_true(json_is_true(json_object_get(j, "timed_out")));
	assert_true(json_real_value(json_object_get(j, "elapsed_s")) == 31.5);
	assert_true(json_real_value(json_object_get(j, "user_s")) == 1.5);
	assert_int_equal(json_integer_value(json_object_get(j, "maxrss_kib")),
			 4096);
	assert_int_equal(json_integer_value(json_object_get(j,
			 "kbench_maxrss_kib")), 8192);
	assert_int_equal(json_integer_value(json_object_get(j, "timeout_s")),
			 31);
	assert_string_equal(json_string_value(json_object_get(j, "extra")),
			    "profiling");
	assert_true(json_is_true(json_object_get(j, "perf_record")));
	assert_true(json_is_true(json_object_get(j, "warmup")));
	assert_int_equal(json_integer_value(json_object_get(j,
			 "start_unix_ns")), 1764464314123456789LL);
	assert_int_equal(json_integer_value(json_object_get(j,
			 "target_size_bytes")), 33554432);
	h = json_object_get(j, "hosts");
	assert_int_equal(json_array_size(h), 2);
	assert_string_equal(json_string_value(json_object_get(
			    json_array_get(h, 0), "target")), "/dev/nvme0n1");
	assert_null(json_object_get(json_array_get(h, 1), "target"));
	/* the probe after the timeout: answered, did not */
	assert_true(json_is_true(json_object_get(json_array_get(h, 0),
						 "answered_probe")));
	assert_true(json_is_false(json_object_get(json_array_get(h, 1),
						  "answered_probe")));
	assert_int_equal(json_integer_value(json_object_get(
			 json_array_get(h, 1), "port")), 8766);
	h = json_object_get(j, "tunables_after");
	assert_string_equal(json_string_value(json_object_get(h,
			    "/sys/block/loop0/queue/nomerges")), "2");
	assert_true(json_is_null(json_object_get(h,
			    "/sys/block/loop0/queue/rq_affinity")));
	assert_string_equal(json_string_value(json_object_get(j,
			    "tunables_changed")), "tunable NM changed");
	assert_int_equal(json_integer_value(json_object_get(j, "group_left")),
			 2);
	assert_non_null(json_object_get(j, "kernel_release"));
	json_decref(j);

	/* a counted run, no hosts =, nothing changed, fio exited 1 */
	fio.exited = 1;
	fio.exit_status = 1;
	r.record_hosts = 0;
	r.extra = NULL;
	r.tunables_changed = NULL;
	r.ntunables_after = 0;
	assert_int_equal(results_run_json_write(path, &r), 0);
	j = kb_json_load(path);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "exit_status")),
			 1);
	assert_null(json_object_get(j, "hosts"));
	assert_null(json_object_get(j, "extra"));
	assert_null(json_object_get(j, "tunables_changed"));
	assert_int_equal(json_object_size(json_object_get(j,
			 "tunables_after")), 0);
	json_decref(j);
	free(path);
}

/* campaign.json's plan: its rounds read back after a save (extra runs'
 * keys count by their round), campaign.iterations set, the rest kept. */
static void test_campaign_plan(void **state)
{
	char *dir = kb_path_join(tmp, "plan"), *cj;
	const char *const keys[] = { "a,NM=0/j/000", "a,NM=0/j/001",
		"a,NM=0/j/004-profiling1", "a,NM=1/j/002" };
	unsigned rounds = 99;
	json_t *j;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	/* no campaign.json: an error, nothing read */
	assert_int_equal(results_campaign_plan_rounds(dir, &rounds), -EINVAL);
	assert_int_equal(rounds, 0);
	assert_int_equal(results_campaign_plan_save(dir, keys, 2, 1), -EINVAL);
	cj = kb_path_join(dir, "campaign.json");
	assert_int_equal(write_text(cj, "{\"schema_version\": 1, \"campaign\": "
				    "{\"name\": \"c\", \"iterations\": 1}}\n"), 0);
	assert_int_equal(results_campaign_plan_rounds(dir, &rounds), 0);
	assert_int_equal(rounds, 0);
	assert_int_equal(results_campaign_plan_save(dir, keys, 4, 4), 0);
	assert_int_equal(results_campaign_plan_rounds(dir, &rounds), 0);
	assert_int_equal(rounds, 5);
	assert_int_equal(results_campaign_plan_save(dir, keys, 2, 2), 0);
	assert_int_equal(results_campaign_plan_rounds(dir, &rounds), 0);
	assert_int_equal(rounds, 2);
	j = kb_json_load(cj);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "plan")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(j,
			    "plan"), 1)), "a,NM=0/j/001");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
			 "campaign"), "iterations")), 2);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j,
			    "campaign"), "name")), "c");
	json_decref(j);

	free(cj);
	free(dir);
}

/* A load host that did not answer fio's probe when the campaign began
 * (fio_version null) is listed on resume, and its answer then written
 * into campaign.json (a break-it trial: the report said "unknown" for a
 * host every run had used) */
static void test_campaign_load_hosts(void **state)
{
	char *dir = kb_path_join(tmp, "lh"), *cj, *labels[4];
	json_t *j, *h;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	assert_int_equal(results_campaign_unknown_load_hosts(dir, labels, 4),
			 0);
	cj = kb_path_join(dir, "campaign.json");
	assert_int_equal(write_text(cj, "{\"schema_version\": 1, "
		"\"environment\": {\"load_hosts\": [{\"host\": "
		"\"10.0.0.2:8765\", \"hostname\": \"l2\", \"fio_version\": "
		"\"fio-3.33\"}, {\"host\": \"[fd00::3]:8765\", \"hostname\": "
		"null, \"fio_version\": null}]}}\n"), 0);
	assert_int_equal(results_campaign_unknown_load_hosts(dir, labels, 4),
			 1);
	assert_string_equal(labels[0], "[fd00::3]:8765");
	free(labels[0]);
	assert_int_equal(results_campaign_load_host_set(dir, "10.0.0.9:8765",
							"x", "fio-3.35"),
			 -ENOENT);
	assert_int_equal(results_campaign_load_host_set(dir, "[fd00::3]:8765",
							"l3", "fio-3.35"), 0);
	assert_int_equal(results_campaign_unknown_load_hosts(dir, labels, 4),
			 0);
	j = kb_json_load(cj);
	assert_non_null(j);
	h = json_array_get(json_object_get(json_object_get(j, "environment"),
					   "load_hosts"), 1);
	assert_string_equal(json_string_value(json_object_get(h,
			    "fio_version")), "fio-3.35");
	assert_string_equal(json_string_value(json_object_get(h, "hostname")),
			    "l3");
	json_decref(j);
	free(cj);
	free(dir);
}

/* campaign.json's snapshot (results_campaign_snapshot()): none in a
 * campaign made before it was recorded; read back as written; a key
 * naming a file outside the campaign directory's snapshot, a value that
 * is not a SHA-256 in lowercase hex, or a "snapshot" that is not an
 * object refused with nothing returned. */
static void test_campaign_snapshot(void **state)
{
	char *dir = kb_path_join(tmp, "snap"), *cj;
	static const char hex[] = "fd1b23b2471a49441c656d10670556f9"
				  "433e620a5d827d0e8f585e942b4adfb0";
	static const char *const bad[] = { "../kernels.conf", "profiles/",
		"profiles/../x", "profiles/.hidden", "profiles/a/b",
		"/etc/passwd", "kernels.conf2", "runs/x" };
	struct results_snapshot_file *f = (void *)1;
	size_t n = 99, i;
	char *text;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	cj = kb_path_join(dir, "campaign.json");
	assert_int_equal(write_text(cj, "{\"schema_version\": 1}\n"), 0);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), 0);
	assert_null(f);
	assert_int_equal(n, 0);
	text = kb_xasprintf("{\"snapshot\": {\"kernels.conf\": \"%s\", "
			    "\"profiles/randread-4k.fio\": \"%s\"}}\n", hex,
			    hex);
	assert_int_equal(write_text(cj, text), 0);
	free(text);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].path, "kernels.conf");
	assert_string_equal(f[1].path, "profiles/randread-4k.fio");
	assert_string_equal(f[1].sha256, hex);
	results_snapshot_free(f, n);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		text = kb_xasprintf("{\"snapshot\": {\"kernels.conf\": "
				    "\"%s\", \"%s\": \"%s\"}}\n", hex, bad[i],
				    hex);
		assert_int_equal(write_text(cj, text), 0);
		free(text);
		f = (void *)1;
		assert_int_equal(results_campaign_snapshot(cj, &f, &n),
				 -EINVAL);
		assert_null(f);
		assert_int_equal(n, 0);
	}
	/* upper-case hex, 63 digits, a number, an array */
	text = kb_xasprintf("{\"snapshot\": {\"kernels.conf\": \"%.63s\"}}\n",
			    hex);
	assert_int_equal(write_text(cj, text), 0);
	free(text);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), -EINVAL);
	assert_int_equal(write_text(cj, "{\"snapshot\": {\"kernels.conf\": "
		"\"FD1B23B2471A49441C656D10670556F9433E620A5D827D0E8F585E942B4ADFB0\"}}"),
		0);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), -EINVAL);
	assert_int_equal(write_text(cj, "{\"snapshot\": {\"kernels.conf\": 1}}"),
			 0);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), -EINVAL);
	assert_int_equal(write_text(cj, "{\"snapshot\": [\"kernels.conf\"]}"), 0);
	assert_int_equal(results_campaign_snapshot(cj, &f, &n), -EINVAL);
	assert_null(f);
	free(cj);
	free(dir);
}

/* state.json from its typed record (results/state.h): runs found by key
 * whatever order they were recorded in, replaced and forgotten; the
 * optional members written only when set; read back the same; a file
 * without "runs" refused. */
static void test_state(void **state)
{
	char *dir = kb_path_join(tmp, "state"), *sj;
	struct kb_state s, back;
	const char *const keys[] = { "b/j/001", "a/j/000", "b/j/000",
				     "a/j/001" };
	json_t *j;
	size_t i;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	sj = kb_path_join(dir, "state.json");
	results_state_init(&s);
	for (i = 0; i < 4; i++)
		results_state_set_run(&s, keys[i], i ? "ok" : "failed",
				      i ? NULL : "fio exited 1",
				      "2026-01-01T00:00:00Z");
	assert_int_equal(s.nruns, 4);
	for (i = 1; i < s.nruns; i++)	/* sorted, for the look-ups */
		assert_true(strcmp(s.runs[i - 1].key, s.runs[i].key) < 0);
	assert_string_equal(results_state_run(&s, "b/j/001")->reason,
			    "fio exited 1");
	assert_null(results_state_run(&s, "c/j/000"));
	results_state_set_run(&s, "b/j/001", "ok", NULL, NULL);
	assert_int_equal(s.nruns, 4);
	assert_string_equal(results_state_run(&s, "b/j/001")->status, "ok");
	assert_null(results_state_run(&s, "b/j/001")->reason);
	assert_int_equal(results_state_del_run(&s, "a/j/000"), 1);
	assert_int_equal(results_state_del_run(&s, "a/j/000"), 0);
	assert_null(results_state_run(&s, "a/j/000"));
	assert_non_null(results_state_run(&s, "a/j/001"));

	/* no optional member unless set */
	assert_int_equal(results_state_save(sj, &s), 0);
	j = kb_json_load(sj);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j,
			 "schema_version")), 1);
	assert_int_equal(json_object_size(json_object_get(j, "runs")), 3);
	assert_true(json_is_null(json_object_get(json_object_get(
		json_object_get(j, "runs"), "a/j/001"), "reason")));
	assert_null(json_object_get(j, "adaptive"));
	assert_null(json_object_get(j, "superseded"));
	assert_null(json_object_get(j, "disturbed_retries"));
	json_decref(j);

	s.has_adaptive = 1;
	s.adaptive_timed_iterations = 7;
	s.adaptive_stopped = kb_xstrdup("why");
	results_state_set_retries(&s, "2", 1);
	results_state_set_retries(&s, "2", 2);
	assert_int_equal(results_state_retries(&s, "2"), 2);
	assert_int_equal(results_state_retries(&s, "3"), 0);
	results_state_add_superseded(&s, "a/j/000",
				     "runs/a/j/000.superseded-1", 1, "psi");
	assert_int_equal(results_state_save(sj, &s), 0);
	j = kb_json_load(sj);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
			 "adaptive"), "timed_iterations")), 7);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j,
			    "adaptive"), "stopped")), "why");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
			 "disturbed_retries"), "2")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "superseded"), 0), "dir")),
		"runs/a/j/000.superseded-1");
	json_decref(j);

	assert_int_equal(results_state_load(sj, &back), 0);
	assert_int_equal(back.nruns, 3);
	assert_string_equal(results_state_run(&back, "b/j/000")->finished,
			    "2026-01-01T00:00:00Z");
	assert_int_equal(back.has_adaptive, 1);
	assert_int_equal(back.adaptive_timed_iterations, 7);
	assert_string_equal(back.adaptive_stopped, "why");
	assert_int_equal(results_state_retries(&back, "2"), 2);
	assert_int_equal(back.nsuperseded, 1);
	assert_int_equal(back.superseded[0].attempt, 1);
	assert_string_equal(back.superseded[0].reason, "psi");
	results_state_free(&back);
	results_state_free(&s);

	/* not a state file: refused, nothing kept */
	assert_int_equal(write_text(sj, "{\"schema_version\": 1}\n"), 0);
	assert_int_equal(results_state_load(sj, &back), -EINVAL);
	assert_int_equal(back.nruns, 0);
	assert_int_equal(write_text(sj, "{\"runs\": {\"a/j/000\": {}}}\n"),
			 0);
	assert_int_equal(results_state_load(sj, &back), -EINVAL);
	assert_int_equal(back.nruns, 0);
	{
		/* the one wording of state.json's validation
		 * (results_state_run_problem()): a status kbench does not
		 * write is refused, and a key's ESC is '?' in the message,
		 * not sent to the terminal */
		char *why = NULL;

		assert_int_equal(write_text(sj, "{\"runs\": {\"a/j/000\": "
					    "{\"status\": \"OK\"}}}\n"), 0);
		assert_int_equal(results_state_load_why(sj, &back, &why),
				 -EINVAL);
		assert_non_null(strstr(why, "runs.\"a/j/000\".status: "
				       "expected \"ok\" or \"failed\""));
		free(why);
		assert_int_equal(write_text(sj, "{\"runs\": {\"a\\u001b]0;x"
					    "/j/000\": 7}}\n"), 0);
		assert_int_equal(results_state_load_why(sj, &back, &why),
				 -EINVAL);
		assert_non_null(strstr(why, "runs.\"a?]0;x/j/000\": expected "
				       "an object ({\"status\": \"ok\", "
				       "...}), got a number"));
		assert_null(strchr(why, 0x1b));
		free(why);
		assert_int_equal(back.nruns, 0);
	}
	free(sj);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kvm_probe_campaign),
		cmocka_unit_test(test_kvm_probe_machine_boot_id),
		cmocka_unit_test(test_boot_overhead),
		cmocka_unit_test(test_tool_versions),
		cmocka_unit_test(test_vm_variant),
		cmocka_unit_test(test_which),
		cmocka_unit_test(test_run_json),
		cmocka_unit_test(test_campaign_plan),
		cmocka_unit_test(test_campaign_load_hosts),
		cmocka_unit_test(test_campaign_snapshot),
		cmocka_unit_test(test_state),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
