/* does KVM run guest code here?  real-mode guest: out 0x10, al=42; hlt */
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <signal.h>
static void onalrm(int s) { (void)s; }
int main(void)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0) { perror("kvmcheck: open /dev/kvm"); return 2; }
	printf("kvmcheck: api %d\n", ioctl(kvm, KVM_GET_API_VERSION, 0));
	int vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0) { perror("kvmcheck: KVM_CREATE_VM"); return 3; }
	unsigned char *mem = mmap(NULL, 0x4000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	const unsigned char code[] = { 0xb0, 42, 0xe6, 0x10, 0xf4 };
	memcpy(mem + 0x1000, code, sizeof code);
	struct kvm_userspace_memory_region r = { .slot = 0, .guest_phys_addr = 0, .memory_size = 0x4000, .userspace_addr = (unsigned long)mem };
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &r) < 0) { perror("kvmcheck: SET_USER_MEMORY_REGION"); return 4; }
	int cpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (cpu < 0) { perror("kvmcheck: KVM_CREATE_VCPU"); return 5; }
	int sz = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	struct kvm_run *run = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, cpu, 0);
	struct kvm_sregs s; ioctl(cpu, KVM_GET_SREGS, &s); s.cs.base = 0; s.cs.selector = 0; ioctl(cpu, KVM_SET_SREGS, &s);
	struct kvm_regs g = { .rip = 0x1000, .rflags = 2 }; ioctl(cpu, KVM_SET_REGS, &g);
	signal(SIGALRM, onalrm); alarm(5);
	for (int i = 0; i < 4; i++) {
		if (ioctl(cpu, KVM_RUN, 0) < 0) { perror("kvmcheck: KVM_RUN (5 s alarm: guest hung?)"); return 6; }
		if (run->exit_reason == KVM_EXIT_IO) { printf("kvmcheck: guest out port 0x%x value %d\n", run->io.port, *((unsigned char *)run + run->io.data_offset)); continue; }
		if (run->exit_reason == KVM_EXIT_HLT) { printf("kvmcheck: guest halted: KVM runs guest code\n"); return 0; }
		printf("kvmcheck: exit reason %d\n", run->exit_reason); return 7;
	}
	return 8;
}
