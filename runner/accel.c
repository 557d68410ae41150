/* runner/accel.c - QEMU accelerator choice and the KVM probe (see
 * accel.h).  QEMU options: qemu-system-x86_64(1) (QEMU 7.2); the KVM API:
 * Documentation/virt/kvm/api.rst ("KVM_GET_API_VERSION ... should return
 * KVM_API_VERSION, 12"). */
#include "runner/accel.h"
#include "runner/campaign.h"
#include "runner/qemu.h"
#include "results/records.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#define QEMU "qemu-system-x86_64"
#define BANNER "Linux version "
#define CAMPAIGN_PROBE "this campaign's earlier probe"

int accel_env_check(void)
{
	const char *e = getenv("KBENCH_ACCEL");

	if (e && *e && kb_accel_from_name(e) == KB_ACCEL_UNSET) {
		kb_error("KBENCH_ACCEL='%.40s': expected auto, kvm or tcg", e);
		return -EINVAL;
	}
	return 0;
}

int accel_requested(const struct kb_variant *v, enum kb_accel *out,
		    const char **source)
{
	const char *e = getenv("KBENCH_ACCEL");

	if (e && *e) {
		if (accel_env_check())
			return -EINVAL;
		*out = kb_accel_from_name(e);
		*source = "KBENCH_ACCEL";
		return 0;
	}
	*out = v->accel;
	*source = v->accel == KB_ACCEL_UNSET ? "default" : "kernels.conf";
	if (*out == KB_ACCEL_UNSET)
		*out = KB_ACCEL_AUTO;
	return 0;
}

int accel_kvm_device(char **why)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), v;

	if (fd < 0) {
		int e = errno;

		*why = kb_xasprintf("/dev/kvm: %s", strerror(e));
		return -e;
	}
	v = ioctl(fd, KVM_GET_API_VERSION, 0);
	close(fd);
	if (v != KVM_API_VERSION) {
		*why = kb_xasprintf("/dev/kvm answers KVM_GET_API_VERSION with "
				    "%d, not %d", v, KVM_API_VERSION);
		return -ENODEV;
	}
	return 0;
}

int accel_kvm_probe(const char *image, unsigned timeout_s, char **why)
{
	char tmpl[] = "/tmp/kbench-kvm-probe.XXXXXX";
	char *console, *qlog, *a_serial;
	struct kb_qemu_result qr;
	size_t clen = 0;
	int ret;

	*why = NULL;
	if (!mkdtemp(tmpl)) {
		ret = -errno;
		kb_error("KVM probe: cannot create %s: %s", tmpl,
			 strerror(errno));
		return ret;
	}
	console = kb_path_join(tmpl, "console.log");
	qlog = kb_path_join(tmpl, "qemu.log");
	a_serial = kb_xasprintf("file:%s", console);
	{
		char *argv[] = { QEMU, "-nodefaults", "-no-user-config",
			"-display", "none", "-no-reboot", "-machine",
			"pc,accel=kvm", "-cpu", "host", "-m", "256", "-smp", "1",
			"-kernel", (char *)image, "-append",
			"console=ttyS0 earlyprintk=serial,ttyS0,115200 "
			"panic=-1 loglevel=4", "-serial", a_serial, NULL };
		struct kb_qemu_watch w = { .console = console,
			.needle = BANNER, .needle_by_s = timeout_s,
			.total_s = timeout_s + 5.0, .stop_at_needle = 1,
			.log_stop = KB_QEMU_KVM_ERROR };

		ret = kb_qemu_run(argv, qlog, &w, &qr);
	}
	if (ret)
		goto out;
	{
		char *t = NULL;

		if (!kb_read_file(console, &t, &clen, 1))
			free(t);
	}
	if (qr.needle_seen) {
		ret = 1;
		*why = kb_xasprintf("the kernel's banner appeared after %.1f s "
				    "with KVM", qr.needle_s);
	} else if (qr.log_stopped) {
		char *l = kb_qemu_log_line(qlog, KB_QEMU_KVM_ERROR, 120);
		char *f = kb_qemu_log_line(qlog, "emulation failure", 60);

		*why = kb_xasprintf("QEMU stopped the guest after %.1f s, "
				    "before the kernel's banner: \"%s\"%s%s%s",
				    qr.wall_s, l ? l : KB_QEMU_KVM_ERROR,
				    f ? " (" : "", f ? f : "", f ? ")" : "");
		free(l);
		free(f);
	} else if (qr.exited && qr.exit_status == 127) {
		ret = -ENOENT;
		*why = kb_xasprintf("%s is not installed (apt-get install "
				    "qemu-system-x86)", QEMU);
	} else if (qr.exited) {
		char *l = kb_qemu_last_line(qlog, 200);

		*why = kb_xasprintf("QEMU with KVM exited (status %d) before "
				    "the kernel printed anything; QEMU said: %s",
				    qr.exit_status, l ? l : "(nothing)");
		free(l);
	} else {
		*why = kb_xasprintf("no kernel output within %u s (%s)",
				    timeout_s, clen ? "firmware output only" :
				    "no console output at all");
	}
out:
	unlink(console);
	unlink(qlog);
	rmdir(tmpl);
	free(console);
	free(qlog);
	free(a_serial);
	return ret;
}

/* A remembered answer: the campaign's, else the machine's (same boot).
 * 1 found (*usable, *reason, *where), 0 none. */
static int remembered(const struct kb_campaign *c, int *usable, char **reason,
		      const char **where)
{
	if (records_kvm_probe_campaign(c->dir, usable, reason)) {
		*where = CAMPAIGN_PROBE;
		return 1;
	}
	if (records_kvm_probe_machine(usable, reason)) {
		*where = "an earlier probe on this boot of the machine";
		return 1;
	}
	return 0;
}

/* Write the answer to the campaign's campaign.json and (machine != 0)
 * the machine's record. */
static int remember(struct kb_campaign *c, int usable, const char *reason,
		    int machine)
{
	int ret = records_kvm_probe_campaign_save(c->dir, usable, reason);

	if (machine)
		records_kvm_probe_machine_save(usable, reason);
	return ret;
}

int accel_choose(struct kb_campaign *c, const struct kb_variant *v,
		 const char *image, int dry_run, struct kb_accel_choice *out)
{
	char *why = NULL, *dev_why = NULL;
	const char *where = NULL;
	int usable = 0, ret;
	static int said;	/* the fallback line once per process */

	memset(out, 0, sizeof(*out));
	ret = accel_requested(v, &out->requested, &out->source);
	if (ret)
		return ret;
	if (out->requested == KB_ACCEL_TCG) {
		out->reason = kb_xasprintf("accel = tcg (%s)", out->source);
		return 0;
	}
	if (accel_kvm_device(&dev_why)) {
		usable = 0;
		why = dev_why;
		dev_why = NULL;
	} else if (remembered(c, &usable, &why, &where)) {
		/* the machine's answer becomes the campaign's */
		if (!dry_run && strcmp(where, CAMPAIGN_PROBE) &&
		    (ret = remember(c, usable, why, 0))) {
			free(why);
			return ret;
		}
	} else if (dry_run) {
		out->kvm = 1;
		out->reason = kb_xasprintf("accel = %s (%s): KVM, if the probe "
			"at the first boot shows it works",
			kb_accel_name(out->requested), out->source);
		return 0;
	} else {
		kb_info("vm: probing KVM (/dev/kvm opens): booting %s with "
			"KVM for at most %u s (kvm_probe_timeout)", image,
			c->cfg.kvm_probe_timeout_s);
		ret = accel_kvm_probe(image, c->cfg.kvm_probe_timeout_s, &why);
		if (ret < 0 && ret != -ENOENT) {
			free(why);
			return ret;
		}
		usable = ret == 1;
		ret = remember(c, usable, why ? why : "no answer", 1);
		if (ret) {
			free(why);
			return ret;
		}
	}
	if (usable) {
		out->kvm = 1;
		out->reason = kb_xasprintf("KVM works here (%s%s%s)", why,
			where ? "; from " : "", where ? where : "");
	} else if (out->requested == KB_ACCEL_KVM) {
		out->fail = 1;
		out->reason = kb_xasprintf("vm: accel = kvm (%s), but KVM is "
			"unusable here: %s%s%s", out->source, why,
			where ? "; from " : "", where ? where : "");
	} else {
		out->reason = kb_xasprintf("KVM unusable here: %s; using TCG",
					   why);
		if (!said++)
			kb_info("%s%s%s%s", out->reason, where ? " (from " : "",
				where ? where : "", where ? ")" : "");
	}
	free(why);
	free(dev_why);
	return 0;
}

void accel_choice_free(struct kb_accel_choice *ch)
{
	free(ch->reason);
	memset(ch, 0, sizeof(*ch));
}
