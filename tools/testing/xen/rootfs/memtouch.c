// SPDX-License-Identifier: GPL-2.0
/*
 * memtouch: keep N MiB of anonymous memory busy and check that it keeps
 * what was written (the guest's part of the balloon check: guest-init
 * runs it with pvops.memtouch=N while dom0 moves the domain's target up
 * and down).
 *
 *   memtouch MIB [PASSES]
 *
 * Pass after pass, every page gets a word naming the pass and the page
 * at its start and at its end, and the pass after checks both before it
 * writes its own.  It prints "PVOPS-HARNESS: memtouch started mib=N"
 * once the memory is touched, a line every 200 passes, and on the first
 * bad word "PVOPS-HARNESS: memtouch error ..." before it exits with 1.
 * With PASSES, it stops after that many, with "PVOPS-HARNESS: memtouch
 * done passes=N".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long mib, pages, i, pass, passes = 0;
	uint64_t *w;
	char *mem;

	if (argc < 2 || argc > 3 || (mib = strtoul(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: memtouch MIB [PASSES]\n");
		return 2;
	}
	if (argc == 3)
		passes = strtoul(argv[2], NULL, 0);
	pages = (mib << 20) / page;
	mem = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("memtouch: mmap");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (pass = 0; ; pass++) {
		for (i = 0; i < pages; i++) {
			uint64_t want = (pass - 1) << 32 | i;

			w = (uint64_t *)(mem + i * page);
			if (pass &&
			    (w[0] != want || w[page / 8 - 1] != ~want)) {
				printf("PVOPS-HARNESS: memtouch error pass=%lu page=%lu want=%#llx got=%#llx,%#llx\n",
				       pass, i, (unsigned long long)want,
				       (unsigned long long)w[0],
				       (unsigned long long)w[page / 8 - 1]);
				return 1;
			}
			w[0] = pass << 32 | i;
			w[page / 8 - 1] = ~(pass << 32 | i);
		}
		if (passes && pass + 1 == passes) {
			printf("PVOPS-HARNESS: memtouch done passes=%lu mib=%lu\n",
			       passes, mib);
			return 0;
		}
		usleep(20000);	/* leave the vCPUs to the balloon mostly */
		if (pass == 0)
			printf("PVOPS-HARNESS: memtouch started mib=%lu\n", mib);
		else if (pass % 200 == 0)
			printf("PVOPS-HARNESS: memtouch passes=%lu\n", pass);
	}
}
