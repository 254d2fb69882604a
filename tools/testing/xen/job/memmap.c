// SPDX-License-Identifier: GPL-2.0
/*
 * memmap DOMID START-END:TYPE...: give a domain the memory map it will
 * read with XENMEM_memory_map, before it runs (xl create -p).
 *
 * A map with holes where Xen's builder populated pfns is what dom0 finds
 * on every machine; a domU meets one only with the host's layout
 * (e820_host), which a small domU here never gets.  This sets one, so
 * that the guest must move frames out of the holes, or give them back.
 * START and END are byte addresses (hex with 0x, or decimal with a K, M
 * or G suffix), TYPE 1 for RAM, 2 for reserved.
 *
 * dom0 makes the hypercall through privcmd: memory_op
 * XENMEM_set_memory_map, whose argument and buffer Xen reads from this
 * process's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
/* The interface of Xen 4.17: guest handles are structs, as the kernel's. */
#define __XEN_INTERFACE_VERSION__ 0x00040e00
#include <xen/xen.h>
#include <xen/memory.h>
#include <xen/sys/privcmd.h>

#define MAX_ENTRIES 32

/* As the BIOS E820 call gives them: what XENMEM_memory_map's buffer holds. */
struct entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
} __attribute__((packed));

static uint64_t address(const char *s, char **end)
{
	uint64_t v = strtoull(s, end, 0);

	switch (**end) {
	case 'G':
		v <<= 10;
		/* fall through */
	case 'M':
		v <<= 10;
		/* fall through */
	case 'K':
		v <<= 10;
		(*end)++;
	}
	return v;
}

int main(int argc, char **argv)
{
	static struct entry map[MAX_ENTRIES];
	static struct xen_foreign_memory_map fmap;
	privcmd_hypercall_t call = { .op = __HYPERVISOR_memory_op };
	unsigned int nr = 0;
	uint64_t start, end;
	char *p;
	int fd, i, rc;

	if (argc < 3 || argc - 2 > MAX_ENTRIES) {
		fprintf(stderr, "usage: memmap DOMID START-END:TYPE...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		start = address(argv[i], &p);
		if (*p++ != '-')
			goto bad;
		end = address(p, &p);
		if (*p++ != ':' || end <= start)
			goto bad;
		map[nr].addr = start;
		map[nr].size = end - start;
		map[nr].type = strtoul(p, &p, 0);
		if (*p || !map[nr].type)
			goto bad;
		nr++;
	}
	fmap.domid = strtoul(argv[1], NULL, 0);
	fmap.map.nr_entries = nr;
	set_xen_guest_handle(fmap.map.buffer, map);
	/* Xen copies from here: keep it in memory while it does. */
	if (mlock(map, sizeof(map)) || mlock(&fmap, sizeof(fmap))) {
		perror("memmap: mlock");
		return 1;
	}
	call.arg[0] = XENMEM_set_memory_map;
	call.arg[1] = (uintptr_t)&fmap;
	fd = open("/dev/xen/privcmd", O_RDWR);
	if (fd < 0) {
		perror("memmap: /dev/xen/privcmd");
		return 1;
	}
	rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &call);
	if (rc) {
		fprintf(stderr, "memmap: XENMEM_set_memory_map of d%u: %s\n",
			fmap.domid, strerror(errno));
		return 1;
	}
	for (i = 0; i < (int)nr; i++)
		printf("memmap d%u: %#llx-%#llx type %u\n", fmap.domid,
		       (unsigned long long)map[i].addr,
		       (unsigned long long)(map[i].addr + map[i].size),
		       map[i].type);
	return 0;
bad:
	fprintf(stderr, "memmap: bad entry %s\n", argv[i]);
	return 2;
}
