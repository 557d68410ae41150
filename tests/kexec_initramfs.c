/* tests/kexec_initramfs.c - the initramfs of tests/vm_kexec_e2e.sh: one
 * archive that boots every kernel of a kexec campaign, built from
 * kbench's own pieces (runner/initramfs.h: modules_resolve, the cpio
 * writer; lib/decompress.h for .ko.xz/.ko.zst/.ko.gz).
 *
 *   kexec_initramfs OUT INIT MODDIR...
 *
 * OUT gets busybox (/bin/busybox), /dev/console, INIT as /init, and for
 * each MODDIR (a lib/modules/RELEASE directory with modules.dep) the
 * virtio PCI, 9p-over-virtio and null_blk modules with their
 * dependencies, decompressed, as /modules/RELEASE/NN-NAME.ko in load
 * order: /init loads the .ko files of /modules/$(uname -r), so the same
 * archive serves the first boot and every kexec (kexec -l --initrd=OUT).
 */
#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"
#include "runner/initramfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const want[] = { "virtio_pci", "9pnet_virtio", "9p",
				    "null_blk" };

/* modules/RELEASE/NN-NAME.ko for the kernel of moddir. */
static int add_kernel(struct kb_cpio *c, const char *moddir)
{
	const char *slash = strrchr(moddir, '/');
	const char *rel = slash && slash[1] ? slash + 1 : moddir;
	struct kb_modlist m;
	char *missing = NULL, *name, *data = NULL;
	size_t i, len;
	int ret;

	ret = modules_resolve(moddir, want, sizeof(want) / sizeof(want[0]),
			      &m, &missing);
	if (ret) {
		kb_error("%s: cannot resolve the modules%s%s: %s", moddir,
			 missing ? ": no " : "", missing ? missing : "",
			 strerror(-ret));
		free(missing);
		return ret;
	}
	name = kb_xasprintf("modules/%s", rel);
	cpio_add(c, name, S_IFDIR | 0755, NULL, 0, 0, 0);
	free(name);
	for (i = 0; i < m.n && !ret; i++) {
		ret = kb_decompress_file(m.path[i], &data, &len);
		if (ret)
			break;
		name = kb_xasprintf("modules/%s/%02zu-%s.ko", rel, i, m.name[i]);
		cpio_add(c, name, S_IFREG | 0644, data, len, 0, 0);
		printf("%s (%zu bytes)\n", name, len);
		free(name);
		free(data);
		data = NULL;
	}
	modules_free(&m);
	return ret ? ret : c->err;
}

int main(int argc, char **argv)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "mnt",
		"mnt/root", "modules", "tmp", NULL };
	char *bb = NULL, *init = NULL, *text = NULL;
	size_t bblen, initlen, len = 0;
	struct kb_cpio c;
	FILE *f;
	int i, ret;

	if (argc < 4) {
		fprintf(stderr, "usage: %s OUT INIT MODDIR...\n", argv[0]);
		return 2;
	}
	if (kb_read_file("/bin/busybox", &bb, &bblen, 0) ||
	    kb_read_file(argv[2], &init, &initlen, 0))
		return 1;
	f = open_memstream(&text, &len);
	if (!f)
		return 1;
	cpio_begin(&c, f);
	for (i = 0; dirs[i]; i++)
		cpio_add(&c, dirs[i], S_IFDIR | 0755, NULL, 0, 0, 0);
	cpio_add(&c, "dev/console", S_IFCHR | 0600, NULL, 0, 5, 1);
	cpio_add(&c, "bin/busybox", S_IFREG | 0755, bb, bblen, 0, 0);
	cpio_add(&c, "init", S_IFREG | 0755, init, initlen, 0, 0);
	ret = 0;
	for (i = 3; i < argc && !ret; i++)
		ret = add_kernel(&c, argv[i]);
	if (!ret)
		ret = cpio_end(&c);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = kb_write_atomic(argv[1], text, len);
	if (ret)
		kb_error("%s: not written: %s", argv[1], strerror(-ret));
	free(bb);
	free(init);
	free(text);
	return ret ? 1 : 0;
}
