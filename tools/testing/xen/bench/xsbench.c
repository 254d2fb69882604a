// SPDX-License-Identifier: GPL-2.0
/*
 * xsbench: concurrent xenstore reads through /dev/xen/xenbus, the way
 * user space in a guest reaches xenstore.  Each thread opens its own
 * connection and reads one path over and over; the rate measures the
 * kernel's xenstore transport (and xenstored), and runs unchanged on any
 * kernel, so ours and the reference compare side by side.
 *
 * Usage: xsbench THREADS READS PATH
 * Prints one "PVOPS-HARNESS: xsbench ..." line for the harness, with the
 * guest's own cost: CPU time its vCPUs spent busy (all but idle, iowait
 * and steal, from /proc/stat) and the events of the "xenbus" interrupt
 * (from /proc/interrupts), both per 1,000 reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define XS_READ		2
#define XS_ERROR	16
#define PAYLOAD_MAX	4096

struct xs_hdr {
	uint32_t type, req_id, tx_id, len;
};

static const char *path;
static int reads;
static pthread_barrier_t start;
static volatile int errors;
static char first_value[64];

/* Busy and total jiffies of all CPUs; busy excludes idle, iowait, steal. */
static void cpu_jiffies(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		*busy = *total - v[3] - v[4] - v[7];
	}
	fclose(f);
}

/* Events so far of the interrupt named "xenbus", all CPUs. */
static unsigned long long xenbus_events(void)
{
	unsigned long long sum = 0, n;
	char line[512], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " xenbus"))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		for (p++;; p = end) {
			n = strtoull(p, &end, 10);
			if (end == p)
				break;
			sum += n;
		}
	}
	fclose(f);
	return sum;
}

static int full_io(int fd, void *buf, size_t len, int writing)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = writing ? write(fd, (char *)buf + done, len - done)
				    : read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static void *reader(void *arg)
{
	char msg[sizeof(struct xs_hdr) + PAYLOAD_MAX], reply[PAYLOAD_MAX + 1];
	struct xs_hdr *h = (struct xs_hdr *)msg, r;
	size_t plen = strlen(path) + 1;
	int fd = open("/dev/xen/xenbus", O_RDWR);
	int i, bad = 0;

	pthread_barrier_wait(&start);
	if (fd < 0) {
		__sync_fetch_and_add(&errors, reads);
		return NULL;
	}
	memcpy(msg + sizeof(*h), path, plen);
	for (i = 0; i < reads; i++) {
		*h = (struct xs_hdr){ XS_READ, (uint32_t)i, 0, (uint32_t)plen };
		if (full_io(fd, msg, sizeof(*h) + plen, 1) ||
		    full_io(fd, &r, sizeof(r), 0) || r.len > PAYLOAD_MAX ||
		    full_io(fd, reply, r.len, 0)) {
			bad += reads - i;
			break;
		}
		reply[r.len] = '\0';
		if (r.type != XS_READ || r.req_id != (uint32_t)i) {
			bad++;
			continue;
		}
		if (arg == NULL && i == 0)
			snprintf(first_value, sizeof(first_value), "%.63s", reply);
	}
	close(fd);
	__sync_fetch_and_add(&errors, bad);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long b0, b1, j0, j1, e0, e1;
	struct timespec t0, t1;
	double secs, kreads;
	pthread_t *tids;
	int threads, i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s THREADS READS PATH\n", argv[0]);
		return 2;
	}
	threads = atoi(argv[1]);
	reads = atoi(argv[2]);
	path = argv[3];
	if (threads < 1 || reads < 1)
		return 2;
	tids = calloc(threads, sizeof(*tids));
	pthread_barrier_init(&start, NULL, threads + 1);
	for (i = 0; i < threads; i++)
		pthread_create(&tids[i], NULL, reader, i ? (void *)1 : NULL);
	cpu_jiffies(&b0, &j0);
	e0 = xenbus_events();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_barrier_wait(&start);
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cpu_jiffies(&b1, &j1);
	e1 = xenbus_events();
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	kreads = threads * reads / 1000.0;
	printf("PVOPS-HARNESS: xsbench threads=%d reads=%d errors=%d seconds=%.3f rate=%.0f busy=%.0f%% cpu_ms_per_kread=%.0f events_per_kread=%.0f value=%s\n",
	       threads, threads * reads, errors, secs,
	       secs > 0 ? threads * reads / secs : 0.0,
	       j1 > j0 ? 100.0 * (b1 - b0) / (j1 - j0) : 0.0,
	       (b1 - b0) * 1000.0 / sysconf(_SC_CLK_TCK) / kreads,
	       (e1 - e0) / kreads, first_value);
	return errors ? 1 : 0;
}
