// SPDX-License-Identifier: GPL-2.0
/*
 * blast: send to a TCP sink over N streams, as fast as they go, until
 * killed (the guest's part of the fair-sharing check: guest-init runs it
 * with pvops.blast=N:ADDR, dom0 runs job/sink.c and job/share.sh).
 *
 *   blast HOST PORT N
 *
 * Each stream is a process of its own, which connects (trying again for
 * a minute while the sink is not there yet), then writes 64 KiB at a
 * time; a stream that breaks connects again.  Once all N are connected
 * it prints "PVOPS-HARNESS: blast started streams=N".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int dial(const struct sockaddr_in *to)
{
	int fd, tries;

	for (tries = 0; tries < 600; tries++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (const struct sockaddr *)to, sizeof(*to)))
			return fd;
		close(fd);
		usleep(100000);
	}
	return -1;
}

static void stream(const struct sockaddr_in *to, int ready)
{
	static char buf[65536];
	int fd = dial(to);

	if (fd < 0) {
		fprintf(stderr, "blast: cannot connect: %s\n", strerror(errno));
		exit(1);
	}
	if (write(ready, "x", 1) != 1)
		exit(1);
	close(ready);
	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		if (write(fd, buf, sizeof(buf)) > 0)
			continue;
		if (errno == EINTR)
			continue;
		close(fd);
		fd = dial(to);
		if (fd < 0)
			exit(1);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	int n, i, p[2];
	char c;

	if (argc != 4 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1 ||
	    (n = atoi(argv[3])) < 1 || n > 64) {
		fprintf(stderr, "usage: blast HOST PORT STREAMS (1-64)\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	signal(SIGPIPE, SIG_IGN);
	if (pipe(p))
		return 1;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			close(p[0]);
			stream(&to, p[1]);
		}
	}
	close(p[1]);
	for (i = 0; i < n; i++)
		if (read(p[0], &c, 1) != 1) {
			fprintf(stderr, "blast: a stream did not connect\n");
			return 1;
		}
	printf("PVOPS-HARNESS: blast started streams=%d\n", n);
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}
