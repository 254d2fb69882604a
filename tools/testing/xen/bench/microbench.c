// SPDX-License-Identifier: GPL-2.0
/*
 * microbench: what the PV MMU and entry paths cost a process, the
 * operations the Xen paper measured: a null system call, fork+exit,
 * fork+exec+exit, an 8 KiB mmap touched and unmapped, first-touch page
 * faults over 16 MiB, and a pipe round trip between two processes (two
 * context switches).  Everything runs on CPU 0, so that the round trip
 * switches rather than waking another CPU.  Each benchmark runs ROUNDS
 * times; the median round is reported, with the fastest and slowest.
 *
 * Usage: microbench [ROUNDS]
 * Prints one "PVOPS-HARNESS: micro name=... ns=..." line per benchmark
 * (nanoseconds per operation), then "PVOPS-HARNESS: micro done".
 *
 * Usage: microbench --only NAME N
 * Runs one benchmark N times, with no warm-up and no timing, for a count
 * taken around it (the hypercalls xentrace sees, say): N=0 runs nothing
 * but is the same process.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS	15

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void null_syscall(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void reap(pid_t pid)
{
	int status;

	if (pid < 0)
		die("fork");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child");
}

static void fork_exit(long n)
{
	long i;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid)
			_exit(0);
		reap(pid);
	}
}

static void fork_exec_exit(long n)
{
	static char *const argv[] = { "true", NULL };
	static char *const envp[] = { NULL };
	long i;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid) {
			execve("/bin/true", argv, envp);
			_exit(127);
		}
		reap(pid);
	}
}

static void touch(char *p, size_t len)
{
	size_t off;

	for (off = 0; off < len; off += 4096)
		((volatile char *)p)[off] = 1;
}

static void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static void mmap_8k(long n)
{
	long i;
	char *p;

	for (i = 0; i < n; i++) {
		p = map_anon(8192);
		touch(p, 8192);
		if (munmap(p, 8192))
			die("munmap");
	}
}

/* n first-touch faults, 16 MiB (4,096 pages) at a time. */
static void faults_16m(long n)
{
	const size_t len = 16 << 20;
	long done;
	char *p;

	for (done = 0; done < n; done += len / 4096) {
		p = map_anon(len);
		touch(p, len);
		if (munmap(p, len))
			die("munmap");
	}
}

static void pipe_round_trip(long n)
{
	int ping[2], pong[2];
	char c = 0;
	long i;
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (!pid) {
		/* Only the parent writes ping: its close ends the loop. */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	if (pid < 0)
		die("fork");
	close(ping[0]);
	close(pong[1]);
	for (i = 0; i < n; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			die("pipe round trip");
	close(ping[1]);
	reap(pid);
	close(pong[0]);
}

static const struct bench {
	const char *name;
	void (*run)(long n);
	long n;		/* operations per round */
} benches[] = {
	{ "null_syscall", null_syscall, 100000 },
	{ "fork_exit", fork_exit, 100 },
	{ "fork_exec_exit", fork_exec_exit, 50 },
	{ "mmap_8k", mmap_8k, 5000 },
	{ "fault_16m", faults_16m, 4096 * 4 },
	{ "pipe_round_trip", pipe_round_trip, 10000 },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NR_BENCHES	(sizeof(benches) / sizeof(benches[0]))

static int run_only(const char *name, const char *count)
{
	unsigned int b;
	char *end;
	long n;

	n = strtol(count, &end, 10);
	for (b = 0; b < NR_BENCHES; b++)
		if (!strcmp(benches[b].name, name))
			break;
	if (b == NR_BENCHES || *end || n < 0) {
		fprintf(stderr, "usage: microbench --only NAME N (N >= 0)\n");
		return 2;
	}
	if (n)
		benches[b].run(n);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	double ns[MAX_ROUNDS], t0;
	cpu_set_t cpu0;
	unsigned int b;
	int r;

	if (argc == 4 && !strcmp(argv[1], "--only"))
		return run_only(argv[2], argv[3]);
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: microbench [ROUNDS, 1 to %d]\n",
			MAX_ROUNDS);
		return 2;
	}
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	for (b = 0; b < NR_BENCHES; b++) {
		const struct bench *bn = &benches[b];

		bn->run(bn->n / 10 ? bn->n / 10 : 1);	/* warm up */
		for (r = 0; r < rounds; r++) {
			t0 = now_ns();
			bn->run(bn->n);
			ns[r] = (now_ns() - t0) / bn->n;
		}
		qsort(ns, rounds, sizeof(ns[0]), cmp_double);
		printf("PVOPS-HARNESS: micro name=%s ns=%.1f min=%.1f max=%.1f rounds=%d ops=%ld\n",
		       bn->name, ns[rounds / 2], ns[0], ns[rounds - 1], rounds,
		       bn->n);
		fflush(stdout);
	}
	printf("PVOPS-HARNESS: micro done\n");
	return 0;
}
