// SPDX-License-Identifier: GPL-2.0
/*
 * gntoffer DOMID: two pages dom0 grants DOMID through gntalloc, for the
 * KUnit case that maps another domain's ring (grant_map_ring_dom0_test,
 * drivers/xen/xen_live_test.c).  Page 0 is filled with 0x50, page 1
 * with 0x51.  Prints "refs R0 R1" at once (job/busybox.sh writes them to
 * the domU's data/pvops-ring), then waits up to 600 s for the domU to
 * write 0xa5 at byte 7 of page 1 through its mapping, and prints
 * "seen" or "timeout".  The grants go when it exits.
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
#include <xen/sys/gntalloc.h>

#define PG	4096

int main(int argc, char **argv)
{
	union {
		struct ioctl_gntalloc_alloc_gref a;
		unsigned char room[sizeof(struct ioctl_gntalloc_alloc_gref) +
				   sizeof(uint32_t)];
	} al = { .a = { .flags = GNTALLOC_FLAG_WRITABLE, .count = 2 } };
	volatile unsigned char *p;
	int fd, i;

	if (argc != 2) {
		fprintf(stderr, "usage: gntoffer DOMID\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	al.a.domid = atoi(argv[1]);
	fd = open("/dev/xen/gntalloc", O_RDWR);
	if (fd < 0 || ioctl(fd, IOCTL_GNTALLOC_ALLOC_GREF, &al)) {
		printf("failed: gntalloc: %s\n", strerror(errno));
		return 1;
	}
	p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 al.a.index);
	if (p == MAP_FAILED) {
		printf("failed: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset((void *)p, 0x50, PG);
	memset((void *)(p + PG), 0x51, PG);
	printf("refs %u %u\n", al.a.gref_ids[0], al.a.gref_ids[1]);
	for (i = 0; i < 6000; i++) {
		if (p[PG + 7] == 0xa5) {
			printf("seen\n");
			return 0;
		}
		usleep(100000);
	}
	printf("timeout\n");
	return 1;
}
