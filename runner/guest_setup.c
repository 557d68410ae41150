/* runner/guest_setup.c - a vm guest's setup inside kbench guest
 * (runner/guest_setup.h). */
#include "runner/guest_setup.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int kb_guest_load_module(const char *spec)
{
	size_t flen = strcspn(spec, " \t");
	char *file = strndup(spec, flen);
	const char *params = spec + flen;
	int fd, ret = 0;

	if (!file)
		return -ENOMEM;
	params += strspn(params, " \t");
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		kb_error("module %s: %s", file, strerror(errno));
	} else if (syscall(SYS_finit_module, fd, params, 0) < 0 &&
		   errno != EEXIST) {
		int e = errno;

		ret = -e;
		/* EKEYREJECTED: no valid signature where the kernel wants
		 * one; EPERM: lockdown (kernel/module/signing.c) */
		kb_error("module %s%s%s: the kernel refused it: %s (its "
			 "messages are on the console)%s", file,
			 *params ? " " : "", params, strerror(e),
			 e == EKEYREJECTED || e == EPERM ? "; if this kernel "
			 "loads signed modules only and campaign.json's "
			 "module_signatures says stripped, set "
			 "module_signatures = keep in the variant" : "");
	}
	if (fd >= 0)
		close(fd);
	free(file);
	return ret;
}

/* mount(2) with a message naming the mount point; 0 or -errno. */
static int mount_at(const char *src, const char *root, const char *sub,
		    const char *type, unsigned long flags, const char *opts)
{
	char *at = kb_xasprintf("%s%s", root, sub);
	int ret = 0;

	if (mount(src, at, type, flags, opts) < 0) {
		ret = -errno;
		kb_error("cannot mount %s (%s%s%s) at %s: %s", src, type,
			 opts ? ", " : "", opts ? opts : "", at,
			 strerror(errno));
	}
	free(at);
	return ret;
}

int kb_guest_mount_9p(const char *root, const char *results_dir)
{
	static const char p9[] = "trans=virtio,version=9p2000.L,msize=262144";
	char *opts = kb_xasprintf("%s,cache=loose", p9), *pts, *res;
	int ret;

	if (results_dir[0] != '/') {
		kb_error("the campaign directory %s: expected an absolute "
			 "path", results_dir);
		free(opts);
		return -EINVAL;
	}
	ret = kb_mkdir_p(root);
	if (!ret)
		ret = mount_at(KB_9P_HOSTROOT, root, "", "9p", MS_RDONLY, opts);
	if (!ret)
		ret = mount_at("proc", root, "/proc", "proc", 0, NULL);
	if (!ret)
		ret = mount_at("sysfs", root, "/sys", "sysfs", 0, NULL);
	if (!ret)
		ret = mount_at("devtmpfs", root, "/dev", "devtmpfs", 0, NULL);
	if (!ret)
		ret = mount_at("tmpfs", root, "/tmp", "tmpfs", 0, NULL);
	if (!ret)
		ret = mount_at("tmpfs", root, "/run", "tmpfs", 0, NULL);
	pts = kb_xasprintf("%s/dev/pts", root);
	if (!ret && mkdir(pts, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		kb_error("cannot create %s: %s", pts, strerror(errno));
	}
	if (!ret)
		ret = mount_at("devpts", root, "/dev/pts", "devpts", 0, NULL);
	/* the results directory last: it may be under /tmp or /run; on the
	 * read-only root it exists already (it is the host's) */
	res = kb_xasprintf("%s%s", root, results_dir);
	if (!ret && !kb_is_dir(res) && kb_mkdir_p(res)) {
		ret = -EIO;
		kb_error("cannot create the campaign directory's mount point "
			 "%s", res);
	}
	if (!ret)
		ret = mount_at(KB_9P_RESULTS, root, results_dir, "9p", 0, p9);
	free(res);
	free(pts);
	free(opts);
	return ret;
}

/* 1 when the ':'-separated list has the entry dir (len bytes) */
static int path_has(const char *list, const char *dir, size_t len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ":");

		if (n == len && !strncmp(p, dir, len))
			return 1;
		p += n;
		if (*p == ':')
			p++;
	}
	return 0;
}

/* 1 when the entry dir (len bytes) is /tmp or /run or under one: the
 * guest mounts a tmpfs there (kb_guest_mount_9p), so the host's files
 * under it are not the guest's */
static int guest_tmpfs(const char *dir, size_t len)
{
	static const char *const tmpfs[] = { "/tmp", "/run" };
	size_t i, t;

	for (i = 0; i < 2; i++) {
		t = strlen(tmpfs[i]);
		if (len >= t && !strncmp(dir, tmpfs[i], t) &&
		    (len == t || dir[t] == '/'))
			return 1;
	}
	return 0;
}

int kb_guest_tmpfs_path(const char *path)
{
	char *real = realpath(path, NULL);
	int in = guest_tmpfs(path, strlen(path)) ||
		 (real && guest_tmpfs(real, strlen(real)));

	free(real);
	return in;
}

/* append the absolute entries of list that out lacks and the guest
 * sees as the host does; at most max bytes in all (an entry that would
 * pass it ends the list) */
static void path_add(char **out, size_t *len, const char *list,
		     size_t max)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ":");
		char *dir = n && p[0] == '/' ? kb_xasprintf("%.*s", (int)n, p) :
			    NULL;

		/* a symlink, "//tmp", "/usr/../tmp" or /var/run that leads
		 * into /tmp or /run does on the guest too */
		if (dir && !kb_guest_tmpfs_path(dir) &&
		    !path_has(*out, p, n)) {
			if (*len + n + 1 > max) {
				free(dir);
				return;
			}
			*out = kb_xrealloc(*out, *len + n + 2);
			if (*len)
				(*out)[(*len)++] = ':';
			memcpy(*out + *len, p, n);
			*len += n;
			(*out)[*len] = '\0';
		}
		free(dir);
		p += n;
		if (*p == ':')
			p++;
	}
}

char *kb_guest_path(const char *host_path)
{
	char *out = kb_xstrdup("");
	size_t len = 0;

	if (host_path)
		path_add(&out, &len, host_path, KB_GUEST_PATH_MAX);
	path_add(&out, &len, KB_GUEST_STD_PATH, (size_t)-1);
	return out;
}

int kb_guest_enter_root(const char *root, const char *path)
{
	if (chroot(root) < 0 || chdir("/") < 0) {
		int e = errno;

		kb_error("cannot enter %s (chroot): %s", root, strerror(e));
		return -e;
	}
	if (clearenv() || setenv("PATH", path ? path : KB_GUEST_STD_PATH, 1) ||
	    setenv("HOME", "/root", 1) || setenv("TERM", "dumb", 1)) {
		kb_error("cannot set the guest's environment");
		return -ENOMEM;
	}
	return 0;
}
