// SPDX-License-Identifier: GPL-2.0
/*
 * devfuzz DOMID SEED: a hostile user of dom0's Xen devices, run as root
 * in dom0 by job/devfuzz.sh against DOMID, a paused busybox domU whose
 * grant 1 (its xenstore page) dom0 may map, as the domain builder set it.
 *
 * Each case prints one line, "PVOPS-HARNESS: devfuzz case <name> ok" or
 * "... FAIL <why>".  A case says what the kernel must answer (an error,
 * success, or either); what matters beyond that is that dom0 lives
 * through it all and logs no oops: devfuzz.sh checks the kernel log and
 * what dom0 holds afterwards.
 *
 * The domU is destroyed on the way (by running "xl destroy"), while one
 * of its grants is mapped and one of dom0's ports is bound to it: the
 * domain must linger while mapped and vanish once unmapped.
 *
 * gntalloc grants pages to dom0 itself, and gntdev maps them back: the
 * same memory through both, the byte to clear cleared at the last unmap.
 *
 * /dev/xen/xenbus_backend, with xenstored up, must offer the ring to no
 * one again, whatever the domain id, and map only its one page.
 *
 * Then 2,000 ioctls of random numbers and arguments, over the five
 * devices.  The privcmd file is first restricted to a domain that does
 * not exist, so that no random hypercall reaches Xen on dom0's behalf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xen/xen.h>
#include <xen/sys/evtchn.h>
#include <xen/sys/gntalloc.h>
#include <xen/sys/gntdev.h>
#include <xen/sys/privcmd.h>

#define PG		4096UL
#define NO_DOMAIN	31000	/* a domid nobody has */

enum want { MUST_FAIL, MUST_WORK, EITHER };

static int fails;

static void say(const char *fmt, ...)
{
	va_list ap;

	printf("PVOPS-HARNESS: devfuzz ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Judge one call's result @rc (errno in @err) against @want. */
static void judge(const char *name, enum want want, long rc, int err)
{
	if (want == MUST_FAIL && rc >= 0) {
		say("case %s FAIL: accepted (%ld)", name, rc);
		fails++;
	} else if (want == MUST_WORK && rc < 0) {
		say("case %s FAIL: refused (%s)", name, strerror(err));
		fails++;
	} else {
		say("case %s ok (%s)", name, rc < 0 ? strerror(err) : "done");
	}
}

#define CASE(name, want, call) do {			\
	long __rc;					\
	errno = 0;					\
	__rc = (call);					\
	judge(name, want, __rc, errno);			\
} while (0)

/* A case that is an mmap: @p gets the mapping, errno is kept. */
#define MAP_CASE(name, want, p, call) do {		\
	errno = 0;					\
	(p) = (call);					\
	judge(name, want, (p) == MAP_FAILED ? -1 : 0, errno);	\
} while (0)

/*
 * /dev/xen/xenbus_backend with xenstored up: the ring is taken, so no
 * domain id, good or bad, may have it offered again, and only its one
 * page at offset 0 maps.
 */
static void xsbackend_cases(void)
{
	static const unsigned long domids[] = { 0, 1, 0x7fef, 0x7ff0, 0xffff,
						 0x10000, ~0UL };
	int fd = open("/dev/xen/xenbus_backend", O_RDWR | O_CLOEXEC);
	char name[48];
	unsigned int i;
	void *p;

	CASE("xsbackend-open", MUST_WORK, fd);
	if (fd < 0)
		return;
	CASE("xsbackend-evtchn", MUST_WORK,
	     ioctl(fd, _IOC(_IOC_NONE, 'B', 0, 0), 0));
	for (i = 0; i < sizeof(domids) / sizeof(domids[0]); i++) {
		snprintf(name, sizeof(name), "xsbackend-setup-%#lx", domids[i]);
		CASE(name, MUST_FAIL,
		     ioctl(fd, _IOC(_IOC_NONE, 'B', 1, 0), domids[i]));
	}
	CASE("xsbackend-ioctl-unknown", MUST_FAIL,
	     ioctl(fd, _IOC(_IOC_NONE, 'B', 7, 0), 0));
	MAP_CASE("xsbackend-mmap-2-pages", MUST_FAIL, p,
		 mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0));
	MAP_CASE("xsbackend-mmap-offset", MUST_FAIL, p,
		 mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, PG));
	MAP_CASE("xsbackend-mmap-ring", MUST_WORK, p,
		 mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0));
	if (p != MAP_FAILED)
		munmap(p, PG);
	close(fd);
}

static int open_dev(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		say("case open-%s FAIL: %s", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static sigjmp_buf fault_jmp;

static void on_fault(int sig)
{
	siglongjmp(fault_jmp, sig);
}

/*
 * Does reading @p fault?  Tried here, with SIGSEGV and SIGBUS caught: a
 * child would not do, the mappings under test are not copied on fork.
 */
static int faults(volatile const unsigned char *p)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_segv, old_bus;
	int sig;

	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(fault_jmp, 1);
	if (!sig)
		(void)*p;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig != 0;
}

static int domain_listed(unsigned int domid)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "xl list %u > /dev/null 2>&1", domid);
	return system(cmd) == 0;
}

static void privcmd_cases(int pc, unsigned int domid)
{
	xen_pfn_t frames[8];
	int errs[8], i, bad;
	privcmd_mmapbatch_v2_t b;
	void *va = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, pc, 0);
	void *anon = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (va == MAP_FAILED) {
		say("case privcmd-mmap FAIL: %s", strerror(errno));
		fails++;
		return;
	}
	for (i = 0; i < 8; i++)
		frames[i] = ~0UL;
	b = (privcmd_mmapbatch_v2_t){ 4, (domid_t)domid, (uintptr_t)va,
				      frames, errs };

	b.num = 0;
	CASE("privcmd-batch-none", EITHER,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.num = 5;		/* one past the mapping */
	CASE("privcmd-batch-past-vma", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.num = 1U << 31;
	CASE("privcmd-batch-huge", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.num = 4;
	b.addr = (uintptr_t)va + 12;
	CASE("privcmd-batch-unaligned", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.addr = (uintptr_t)anon;
	CASE("privcmd-batch-not-privcmd-vma", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.addr = (uintptr_t)va;
	b.arr = NULL;
	CASE("privcmd-batch-null-frames", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.arr = (void *)0xffff888000000000UL;
	CASE("privcmd-batch-kernel-frames", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.arr = frames;
	b.err = (void *)8;
	CASE("privcmd-batch-bad-errs", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	b.err = errs;
	b.dom = NO_DOMAIN;
	CASE("privcmd-batch-no-domain", EITHER,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));

	/* Frames that are no frames: every one refused, none readable. */
	b.dom = domid;
	memset(errs, 0, sizeof(errs));
	CASE("privcmd-batch-bad-frames", EITHER,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	for (i = 0, bad = 0; i < 4; i++)
		bad += errs[i] != 0;
	judge("privcmd-batch-bad-frames-each", MUST_WORK, bad == 4 ? 0 : -1,
	      EINVAL);
	judge("privcmd-batch-bad-frames-unreadable", MUST_WORK,
	      faults(va) ? 0 : -1, EINVAL);
	/* The same range again, and half of it unmapped first. */
	CASE("privcmd-batch-again", EITHER,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	munmap((char *)va + 2 * PG, 2 * PG);
	CASE("privcmd-batch-half-unmapped", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	munmap(va, 2 * PG);
	CASE("privcmd-batch-unmapped", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAPBATCH_V2, &b));
	CASE("privcmd-mmap-huge", EITHER,
	     (long)mmap(NULL, 1UL << 40, PROT_READ, MAP_SHARED, pc, 0) == -1 ?
	     -1 : 0);
	CASE("privcmd-mmap-private", MUST_FAIL,
	     (long)mmap(NULL, PG, PROT_READ, MAP_PRIVATE, pc, 0) == -1 ?
	     -1 : 0);
	munmap(anon, PG);
}

/* A grant table entry, version 1: what the domain builder seeded. */
struct grant_v1 {
	uint16_t flags;
	uint16_t domid;
	uint32_t frame;
};

static void resource_cases(int pc, unsigned int domid)
{
	privcmd_mmap_resource_t r = { .dom = domid, .type = 1 /* grant table */ };
	struct grant_v1 *gt;
	domid_t nobody = NO_DOMAIN;
	int rpc;

	CASE("privcmd-resource-size", MUST_WORK,
	     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
	judge("privcmd-resource-size-given", MUST_WORK, r.num ? 0 : -1, EINVAL);
	MAP_CASE("privcmd-resource-mmap", MUST_WORK, gt,
		 mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, pc, 0));
	if (gt != MAP_FAILED) {
		r.num = 1;
		r.addr = (uintptr_t)gt;
		CASE("privcmd-resource-map-grant-table", MUST_WORK,
		     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
		/* Entry 0, the console's: dom0 may map it (GTF_permit_access). */
		judge("privcmd-resource-grant-0-for-dom0", MUST_WORK,
		      !faults((void *)gt) && (gt[0].flags & 3) == 1 &&
		      gt[0].domid == 0 ? 0 : -1, EINVAL);
		r.addr += 8;
		CASE("privcmd-resource-unaligned", MUST_FAIL,
		     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
		r.addr -= 8;
		r.num = 100000;
		CASE("privcmd-resource-huge", MUST_FAIL,
		     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
		r.num = 2;	/* one past the mapping */
		CASE("privcmd-resource-past-vma", MUST_FAIL,
		     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
		munmap(gt, PG);
	}
	/*
	 * No such resource: Xen 4.17 gives its size as its -EOPNOTSUPP
	 * taken unsigned; mapping that many is refused.
	 */
	r = (privcmd_mmap_resource_t){ .dom = domid, .type = 99 };
	CASE("privcmd-resource-bad-type", EITHER,
	     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
	r.addr = 1UL << 30;
	CASE("privcmd-resource-bad-type-map", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
	r = (privcmd_mmap_resource_t){ .dom = NO_DOMAIN, .type = 1 };
	CASE("privcmd-resource-no-domain", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
	rpc = open_dev("/dev/xen/privcmd");
	ioctl(rpc, IOCTL_PRIVCMD_RESTRICT, &nobody);
	r = (privcmd_mmap_resource_t){ .dom = domid, .type = 1 };
	CASE("privcmd-resource-restricted", MUST_FAIL,
	     ioctl(rpc, IOCTL_PRIVCMD_MMAP_RESOURCE, &r));
	close(rpc);
}

static void dm_op_cases(int pc, unsigned int domid)
{
	static unsigned char big[1 << 16];
	uint32_t create[8] = { 1 /* create an ioreq server */ };
	privcmd_dm_op_buf_t bufs[17];
	privcmd_dm_op_t op = { .dom = domid, .num = 1, .ubufs = bufs };
	int i;

	for (i = 0; i < 17; i++) {
		bufs[i].uptr = create;
		bufs[i].size = sizeof(create);
	}
	/* A PV domain has no device model: Xen refuses, the copy ran. */
	CASE("privcmd-dm-op-pv-domain", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
	op.num = 0;
	CASE("privcmd-dm-op-none", MUST_FAIL, ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
	op.num = 17;
	CASE("privcmd-dm-op-too-many", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
	op.num = 1;
	op.ubufs = NULL;
	CASE("privcmd-dm-op-null-bufs", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
	op.ubufs = bufs;
	bufs[0].uptr = big;
	bufs[0].size = sizeof(big);
	CASE("privcmd-dm-op-big-buf", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
	bufs[0].uptr = (void *)16;
	bufs[0].size = 8;
	CASE("privcmd-dm-op-bad-buf", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_DM_OP, &op));
}

static void privcmd_buf_cases(void)
{
	int pb = open_dev("/dev/xen/hypercall");
	unsigned char *p, *q;

	MAP_CASE("privcmd-buf-mmap", MUST_WORK, p,
		 mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, pb, 0));
	if (p != MAP_FAILED) {
		judge("privcmd-buf-zeroed", MUST_WORK,
		      p[0] == 0 && p[2 * PG - 1] == 0 ? 0 : -1, EINVAL);
		p[PG] = 0x42;
		judge("privcmd-buf-written", MUST_WORK, p[PG] == 0x42 ? 0 : -1,
		      EINVAL);
		CASE("privcmd-buf-munmap-half", MUST_FAIL, munmap(p, PG));
		CASE("privcmd-buf-munmap", MUST_WORK, munmap(p, 2 * PG));
	}
	MAP_CASE("privcmd-buf-private", MUST_FAIL, q,
		 mmap(NULL, PG, PROT_READ, MAP_PRIVATE, pb, 0));
	MAP_CASE("privcmd-buf-too-big", MUST_FAIL, q,
		 mmap(NULL, 1000 * PG, PROT_READ, MAP_SHARED, pb, 0));
	MAP_CASE("privcmd-buf-offset", MUST_FAIL, q,
		 mmap(NULL, PG, PROT_READ, MAP_SHARED, pb, PG));
	close(pb);
}

/*
 * A mapping whose VMA is copied: by fork once MADV_DOFORK lifted
 * VM_DONTCOPY, and by an mremap that the driver then refuses.  Each copy
 * must hold its own reference: the pages outlive the first to go.
 */
static void vma_copy_cases(const char *dev, int fd, off_t off)
{
	char name[64];
	unsigned char *p, *q, *spot;
	pid_t child;
	int st = -1;

	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	snprintf(name, sizeof(name), "%s-copy-setup", dev);
	judge(name, MUST_WORK, p == MAP_FAILED ? -1 : 0, errno);
	if (p == MAP_FAILED)
		return;
	p[0] = 0x5a;
	snprintf(name, sizeof(name), "%s-madv-dofork", dev);
	CASE(name, EITHER, madvise(p, PG, MADV_DOFORK));
	child = fork();
	if (child == 0)
		_exit(p[0] == 0x5a ? 0 : 1);
	waitpid(child, &st, 0);
	snprintf(name, sizeof(name), "%s-fork-child-gone", dev);
	judge(name, MUST_WORK, WIFEXITED(st) ? 0 : -1, EINVAL);
	snprintf(name, sizeof(name), "%s-alive-after-fork", dev);
	judge(name, MUST_WORK, !faults(p) && p[0] == 0x5a ? 0 : -1, EINVAL);
	spot = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	snprintf(name, sizeof(name), "%s-mremap-fixed", dev);
	MAP_CASE(name, MUST_FAIL, q,
		 mremap(p, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, spot));
	snprintf(name, sizeof(name), "%s-alive-after-mremap", dev);
	judge(name, MUST_WORK, !faults(p) && p[0] == 0x5a ? 0 : -1, EINVAL);
	munmap(p, PG);
	munmap(spot, PG);
}

static void restrict_privcmd(int pc)
{
	domid_t nobody = NO_DOMAIN;
	privcmd_hypercall_t h = { .op = 17 /* xen_version */ };

	CASE("privcmd-restrict", MUST_WORK,
	     ioctl(pc, IOCTL_PRIVCMD_RESTRICT, &nobody));
	CASE("privcmd-restricted-hypercall", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_HYPERCALL, &h));
	nobody = 0;
	CASE("privcmd-restrict-again", MUST_FAIL,
	     ioctl(pc, IOCTL_PRIVCMD_RESTRICT, &nobody));
}

/* Map grant 1 of @domid; the mapping, or NULL. */
static void *gntdev_map_store(int gd, unsigned int domid, uint64_t *index)
{
	struct ioctl_gntdev_map_grant_ref m = { .count = 1 };
	void *p;

	m.refs[0].domid = domid;
	m.refs[0].ref = 1;
	CASE("gntdev-map-ref", MUST_WORK,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &m));
	*index = m.index;
	MAP_CASE("gntdev-mmap-store", MUST_WORK, p,
		 mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, gd,
		      m.index));
	return p == MAP_FAILED ? NULL : p;
}

static void gntdev_cases(int gd, unsigned int domid)
{
	struct ioctl_gntdev_map_grant_ref m = { .count = 0 };
	struct ioctl_gntdev_unmap_grant_ref u = { .index = 1UL << 40,
						  .count = 1 };
	struct ioctl_gntdev_unmap_notify n = { .index = 1UL << 40,
					       .action = 1 };
	void *p;

	CASE("gntdev-map-none", MUST_FAIL,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &m));
	m.count = 1U << 30;
	CASE("gntdev-map-huge", MUST_FAIL,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &m));
	CASE("gntdev-map-bad-pointer", MUST_FAIL,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, (void *)16));
	CASE("gntdev-unmap-unknown", MUST_FAIL,
	     ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u));
	CASE("gntdev-notify-unknown", MUST_FAIL,
	     ioctl(gd, IOCTL_GNTDEV_SET_UNMAP_NOTIFY, &n));

	/* A grant that is not there: the map ioctl may take it, mmap not. */
	m.count = 1;
	m.refs[0].domid = domid;
	m.refs[0].ref = 4000;
	CASE("gntdev-map-ungranted", EITHER,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &m));
	MAP_CASE("gntdev-mmap-ungranted", MUST_FAIL, p,
		 mmap(NULL, PG, PROT_READ, MAP_SHARED, gd, m.index));
	if (p != MAP_FAILED)
		munmap(p, PG);
	u.index = m.index;
	CASE("gntdev-unmap-ungranted", EITHER,
	     ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u));

	/* Of a domain that does not exist. */
	m.refs[0].domid = NO_DOMAIN;
	m.refs[0].ref = 1;
	CASE("gntdev-map-no-domain", EITHER,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &m));
	MAP_CASE("gntdev-mmap-no-domain", MUST_FAIL, p,
		 mmap(NULL, PG, PROT_READ, MAP_SHARED, gd, m.index));
	CASE("gntdev-mmap-unknown-offset", MUST_FAIL,
	     (long)mmap(NULL, PG, PROT_READ, MAP_SHARED, gd, 1UL << 40) == -1 ?
	     -1 : 0);
}

static int xl_destroy(unsigned int domid)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "xl destroy %u", domid);
	return system(cmd);
}

/* Map the domU's page, then destroy it, with a port bound to it too. */
static void vanish_cases(int gd, int ev, unsigned int domid)
{
	struct ioctl_evtchn_bind_unbound_port ub = { .remote_domain = domid };
	struct ioctl_evtchn_notify nt;
	struct ioctl_evtchn_unbind un;
	struct ioctl_gntdev_unmap_grant_ref u = { .count = 1 };
	uint64_t index;
	unsigned char *p;
	void *q;
	int port, i;

	port = ioctl(ev, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &ub);
	judge("evtchn-bind-unbound-to-domu", MUST_WORK, port, errno);
	p = gntdev_map_store(gd, domid, &index);
	if (!p)
		return;
	(void)p[0];
	MAP_CASE("gntdev-mremap", MUST_FAIL, q,
		 mremap(p, PG, 2 * PG, MREMAP_MAYMOVE));
	if (q != MAP_FAILED)
		p = q;

	CASE("xl-destroy-while-mapped", MUST_WORK,
	     xl_destroy(domid) == 0 ? 0 : -1);
	/* Its page is still mapped here, and still readable. */
	CASE("gntdev-read-after-destroy", MUST_WORK, faults(p) ? -1 : 0);
	nt.port = port;
	CASE("evtchn-notify-vanished", EITHER,
	     ioctl(ev, IOCTL_EVTCHN_NOTIFY, &nt));
	un.port = port;
	CASE("evtchn-unbind-vanished", MUST_WORK,
	     ioctl(ev, IOCTL_EVTCHN_UNBIND, &un));

	munmap(p, PG);
	u.index = index;
	CASE("gntdev-unmap-after-destroy", MUST_WORK,
	     ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u));
	/* Nothing of it held any more: the domain goes. */
	for (i = 0; i < 100 && domain_listed(domid); i++)
		usleep(100000);
	CASE("domu-gone-once-unmapped", MUST_WORK,
	     domain_listed(domid) ? -1 : 0);
}

/* Pages dom0 grants itself through gntalloc, mapped back through gntdev. */
static void gntalloc_cases(int ga, int gd)
{
	/* The references follow the header, in its padding too. */
	union {
		struct ioctl_gntalloc_alloc_gref a;
		unsigned char room[sizeof(struct ioctl_gntalloc_alloc_gref) +
				   2 * sizeof(uint32_t)];
	} al = { .a = { .domid = 0, .flags = GNTALLOC_FLAG_WRITABLE,
			.count = 2 } };
	uint32_t *ids = al.a.gref_ids;
	struct {
		struct ioctl_gntdev_map_grant_ref m;
		struct ioctl_gntdev_grant_ref more[1];
	} gm = { .m = { .count = 2 } };
	struct ioctl_gntalloc_dealloc_gref dl;
	struct ioctl_gntalloc_unmap_notify nf;
	struct ioctl_gntdev_unmap_grant_ref u = { .count = 2 };
	unsigned char *p, *q;

	CASE("gntalloc-alloc", MUST_WORK,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	MAP_CASE("gntalloc-mmap", MUST_WORK, p,
		 mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, ga,
		      al.a.index));
	if (p == MAP_FAILED)
		return;
	strcpy((char *)p, "granted by gntalloc");
	gm.m.refs[0].domid = 0;
	gm.m.refs[0].ref = ids[0];
	gm.more[0].domid = 0;
	gm.more[0].ref = ids[1];
	CASE("gntdev-map-own-grants", MUST_WORK,
	     ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &gm));
	MAP_CASE("gntdev-mmap-own-grants", MUST_WORK, q,
		 mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, gd,
		      gm.m.index));
	if (q != MAP_FAILED) {
		judge("gntalloc-gntdev-same-page", MUST_WORK,
		      strcmp((char *)q, "granted by gntalloc") ? -1 : 0,
		      EINVAL);
		q[PG + 5] = 0x77;
		judge("gntdev-write-seen-by-gntalloc", MUST_WORK,
		      p[PG + 5] == 0x77 ? 0 : -1, EINVAL);
	}
	/* Deallocated while both ends map it: the pages live on. */
	dl.index = al.a.index;
	dl.count = 2;
	CASE("gntalloc-dealloc-mapped", MUST_WORK,
	     ioctl(ga, IOCTL_GNTALLOC_DEALLOC_GREF, &dl));
	CASE("gntalloc-dealloc-again", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_DEALLOC_GREF, &dl));
	CASE("gntalloc-read-after-dealloc", MUST_WORK, faults(p) ? -1 : 0);
	/* The byte to clear at the last unmap, seen from the other end. */
	nf.index = al.a.index + 10;
	nf.action = UNMAP_NOTIFY_CLEAR_BYTE;
	nf.event_channel_port = 0;
	CASE("gntalloc-notify-deallocated", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_SET_UNMAP_NOTIFY, &nf));
	munmap(p, 2 * PG);
	if (q != MAP_FAILED) {
		judge("gntdev-reads-after-gntalloc-unmap", MUST_WORK,
		      q[0] == 'g' ? 0 : -1, EINVAL);
		munmap(q, 2 * PG);
	}
	u.index = gm.m.index;
	CASE("gntdev-unmap-own-grants", MUST_WORK,
	     ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u));

	al.a.count = 1;
	CASE("gntalloc-alloc-one", MUST_WORK,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ga, al.a.index);
	gm.m.count = 1;
	gm.m.refs[0].ref = ids[0];
	q = MAP_FAILED;
	if (p != MAP_FAILED && !ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &gm))
		q = mmap(NULL, PG, PROT_READ, MAP_SHARED, gd, gm.m.index);
	CASE("gntalloc-notify-setup", MUST_WORK,
	     p == MAP_FAILED || q == MAP_FAILED ? -1 : 0);
	if (p != MAP_FAILED && q != MAP_FAILED) {
		p[10] = 0xff;
		nf.index = al.a.index + 10;
		CASE("gntalloc-notify-clear-byte", MUST_WORK,
		     ioctl(ga, IOCTL_GNTALLOC_SET_UNMAP_NOTIFY, &nf));
		/* Not while still allocated: at the last reference. */
		munmap(p, PG);
		judge("gntalloc-byte-kept-while-allocated", MUST_WORK,
		      q[10] == 0xff ? 0 : -1, EINVAL);
		dl.index = al.a.index;
		dl.count = 1;
		CASE("gntalloc-dealloc-notified", MUST_WORK,
		     ioctl(ga, IOCTL_GNTALLOC_DEALLOC_GREF, &dl));
		judge("gntalloc-byte-cleared-at-last-ref", MUST_WORK,
		      q[10] == 0 ? 0 : -1, EINVAL);
		munmap(q, PG);
		u.index = gm.m.index;
		u.count = 1;
		ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u);
	}

	/* A process that dies with the page mapped clears the byte too. */
	al.a.count = 1;
	CASE("gntalloc-alloc-for-child", MUST_WORK,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ga, al.a.index);
	if (p != MAP_FAILED) {
		pid_t child;
		int st = -1;

		p[20] = 0xff;
		child = fork();
		if (child == 0) {
			struct ioctl_gntdev_unmap_notify cn = {
				.action = UNMAP_NOTIFY_CLEAR_BYTE };
			int cgd = open("/dev/xen/gntdev", O_RDWR);

			gm.m.count = 1;
			gm.m.refs[0].ref = ids[0];
			if (cgd < 0 ||
			    ioctl(cgd, IOCTL_GNTDEV_MAP_GRANT_REF, &gm) ||
			    mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED,
				 cgd, gm.m.index) == MAP_FAILED)
				_exit(1);
			cn.index = gm.m.index + 20;
			if (ioctl(cgd, IOCTL_GNTDEV_SET_UNMAP_NOTIFY, &cn))
				_exit(2);
			_exit(0);	/* mapped, and not unmapped */
		}
		waitpid(child, &st, 0);
		judge("gntdev-child-mapped-and-died", MUST_WORK,
		      WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1, EINVAL);
		judge("gntdev-byte-cleared-at-exit", MUST_WORK,
		      p[20] == 0 ? 0 : -1, EINVAL);
		munmap(p, PG);
	}

	al.a.count = 0;
	CASE("gntalloc-alloc-none", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	al.a.count = 1U << 31;
	CASE("gntalloc-alloc-huge", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	al.a.count = 1;
	al.a.flags = 0xff;
	CASE("gntalloc-alloc-bad-flags", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	CASE("gntalloc-alloc-bad-pointer", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, (void *)24));
	al.a.flags = 0;
	CASE("gntalloc-alloc-readonly", MUST_WORK,
	     ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, &al));
	CASE("gntalloc-mmap-short", MUST_FAIL,
	     (long)mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, ga,
			al.a.index) == -1 ? -1 : 0);
	CASE("gntalloc-mmap-unknown", MUST_FAIL,
	     (long)mmap(NULL, PG, PROT_READ, MAP_SHARED, ga,
			al.a.index + (64 << 12)) == -1 ? -1 : 0);
	dl.index = 1UL << 40;
	dl.count = 1;
	CASE("gntalloc-dealloc-unknown", MUST_FAIL,
	     ioctl(ga, IOCTL_GNTALLOC_DEALLOC_GREF, &dl));
	/* The last block is left for close to free. */
}

static void evtchn_cases(int ev)
{
	struct ioctl_evtchn_bind_virq v = { .virq = 1000 };
	struct ioctl_evtchn_unbind un = { .port = 99999 };
	struct ioctl_evtchn_notify nt = { .port = 99999 };
	struct ioctl_evtchn_bind_unbound_port ub = { .remote_domain = 0 };
	struct ioctl_evtchn_bind_interdomain bi = { .remote_domain = 0 };
	unsigned int junk[3] = { 0xffffffff, 0, 99999 };
	char buf[8];
	int ev2, a, b;

	CASE("evtchn-bind-bad-virq", MUST_FAIL,
	     ioctl(ev, IOCTL_EVTCHN_BIND_VIRQ, &v));
	CASE("evtchn-unbind-unknown", MUST_FAIL,
	     ioctl(ev, IOCTL_EVTCHN_UNBIND, &un));
	CASE("evtchn-notify-unknown", MUST_FAIL,
	     ioctl(ev, IOCTL_EVTCHN_NOTIFY, &nt));
	ub.remote_domain = NO_DOMAIN;
	/* Xen keeps a port for a domain that may come: either is right. */
	CASE("evtchn-bind-unbound-no-domain", EITHER,
	     ioctl(ev, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &ub));
	bi.remote_port = 99999;
	CASE("evtchn-bind-interdomain-no-port", MUST_FAIL,
	     ioctl(ev, IOCTL_EVTCHN_BIND_INTERDOMAIN, &bi));
	CASE("evtchn-write-junk", EITHER, write(ev, junk, sizeof(junk)));
	CASE("evtchn-write-odd", EITHER, write(ev, junk, 5));
	/* Less than a port: nothing to read, or refused. */
	CASE("evtchn-read-odd", EITHER, read(ev, buf, 3));

	/* Two files, one port each end; the first end closes. */
	ev2 = open_dev("/dev/xen/evtchn");
	ub.remote_domain = 0;
	a = ioctl(ev2, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &ub);
	judge("evtchn-pair-unbound", MUST_WORK, a, errno);
	bi.remote_port = a;
	b = ioctl(ev, IOCTL_EVTCHN_BIND_INTERDOMAIN, &bi);
	judge("evtchn-pair-interdomain", MUST_WORK, b, errno);
	close(ev2);
	nt.port = b;
	CASE("evtchn-notify-peer-closed", EITHER,
	     ioctl(ev, IOCTL_EVTCHN_NOTIFY, &nt));
	un.port = b;
	CASE("evtchn-unbind-peer-closed", MUST_WORK,
	     ioctl(ev, IOCTL_EVTCHN_UNBIND, &un));
	CASE("evtchn-reset", MUST_WORK, ioctl(ev, IOCTL_EVTCHN_RESET, NULL));
}

/* 2,000 ioctls with random numbers and arguments. */
static void random_ioctls(const int *fds, unsigned int nfd, unsigned int seed)
{
	static const unsigned long cmds[] = {
		IOCTL_PRIVCMD_HYPERCALL, IOCTL_PRIVCMD_MMAP,
		IOCTL_PRIVCMD_MMAPBATCH, IOCTL_PRIVCMD_MMAPBATCH_V2,
		IOCTL_PRIVCMD_DM_OP, IOCTL_PRIVCMD_RESTRICT,
		IOCTL_PRIVCMD_MMAP_RESOURCE, IOCTL_GNTDEV_MAP_GRANT_REF,
		IOCTL_GNTDEV_UNMAP_GRANT_REF, IOCTL_GNTDEV_GET_OFFSET_FOR_VADDR,
		IOCTL_GNTDEV_SET_MAX_GRANTS, IOCTL_GNTDEV_SET_UNMAP_NOTIFY,
		IOCTL_GNTDEV_GRANT_COPY, IOCTL_EVTCHN_BIND_VIRQ,
		IOCTL_EVTCHN_BIND_INTERDOMAIN, IOCTL_EVTCHN_BIND_UNBOUND_PORT,
		IOCTL_EVTCHN_UNBIND, IOCTL_EVTCHN_NOTIFY, IOCTL_EVTCHN_RESET,
		IOCTL_EVTCHN_RESTRICT_DOMID, IOCTL_GNTALLOC_ALLOC_GREF,
		IOCTL_GNTALLOC_DEALLOC_GREF, IOCTL_GNTALLOC_SET_UNMAP_NOTIFY,
	};
	unsigned char *buf = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int i, j, refused = 0;

	srandom(seed);
	for (i = 0; i < 2000; i++) {
		unsigned long cmd, arg;
		int fd = fds[random() % nfd];

		cmd = random() % 4 ? cmds[random() % (sizeof(cmds) /
						      sizeof(cmds[0]))] :
			(unsigned long)random();
		for (j = 0; j < PG; j++)
			buf[j] = random();
		/* Small counts now and then, so that some calls go deep. */
		if (random() % 2)
			*(uint32_t *)buf = random() % 4;
		switch (random() % 5) {
		case 0:
			arg = 0;
			break;
		case 1:
			arg = (unsigned long)random() << 12;
			break;
		case 2:
			arg = 0xffff888000000000UL + random();
			break;
		default:
			arg = (unsigned long)buf + random() % 64;
			break;
		}
		if (ioctl(fd, cmd, arg) < 0)
			refused++;
	}
	say("case random-ioctls ok (2000 calls, %u refused, seed %u)",
	    refused, seed);
}

int main(int argc, char **argv)
{
	unsigned int domid, seed;
	int fds[5], i;

	if (argc != 3) {
		fprintf(stderr, "usage: devfuzz DOMID SEED\n");
		return 2;
	}
	domid = atoi(argv[1]);
	seed = atoi(argv[2]);
	fds[0] = open_dev("/dev/xen/privcmd");
	fds[1] = open_dev("/dev/xen/gntdev");
	fds[2] = open_dev("/dev/xen/evtchn");
	fds[3] = open_dev("/dev/xen/xenbus");
	fds[4] = open_dev("/dev/xen/gntalloc");

	privcmd_cases(fds[0], domid);
	resource_cases(fds[0], domid);
	dm_op_cases(fds[0], domid);
	privcmd_buf_cases();
	{
		int pb = open_dev("/dev/xen/hypercall");
		union {
			struct ioctl_gntalloc_alloc_gref a;
			unsigned char room[sizeof(struct ioctl_gntalloc_alloc_gref) + 4];
		} al = { .a = { .domid = 0, .flags = GNTALLOC_FLAG_WRITABLE,
				.count = 1 } };

		vma_copy_cases("privcmd-buf", pb, 0);
		close(pb);
		CASE("gntalloc-alloc-for-copies", MUST_WORK,
		     ioctl(fds[4], IOCTL_GNTALLOC_ALLOC_GREF, &al));
		vma_copy_cases("gntalloc", fds[4], al.a.index);
	}
	gntdev_cases(fds[1], domid);
	evtchn_cases(fds[2]);
	gntalloc_cases(fds[4], fds[1]);
	vanish_cases(fds[1], fds[2], domid);
	xsbackend_cases();
	restrict_privcmd(fds[0]);
	random_ioctls(fds, 5, seed);
	for (i = 0; i < 5; i++)
		close(fds[i]);
	say("done fails=%d", fails);
	return fails != 0;
}
