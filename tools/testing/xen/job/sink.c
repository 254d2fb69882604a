// SPDX-License-Identifier: GPL-2.0
/*
 * sink: take TCP streams and count what each sending address delivered
 * (dom0's part of the fair-sharing check, job/share.sh; the guests run
 * rootfs/blast.c).
 *
 *   sink PORT FILE
 *
 * Every 200 ms FILE is replaced by one line a sender, "ADDRESS BYTES",
 * the bytes read from all its streams since the sink started.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_PEERS	16
#define MAX_FDS		1024

static struct {
	struct in_addr addr;
	unsigned long long bytes;
} peers[MAX_PEERS];
static int npeers;
static int peer_of[MAX_FDS];	/* fd -> index in peers */

static int peer_index(struct in_addr a)
{
	int i;

	for (i = 0; i < npeers; i++)
		if (peers[i].addr.s_addr == a.s_addr)
			return i;
	if (npeers == MAX_PEERS)
		return -1;
	peers[npeers].addr = a;
	return npeers++;
}

static void report(const char *path)
{
	char tmp[256];
	FILE *f;
	int i;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	for (i = 0; i < npeers; i++)
		fprintf(f, "%s %llu\n", inet_ntoa(peers[i].addr), peers[i].bytes);
	if (!fclose(f))
		rename(tmp, path);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char buf[262144];
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct epoll_event ev, evs[64];
	int lfd, ep, one = 1, n, i, fd;
	double last = 0;
	socklen_t len;
	ssize_t got;

	if (argc != 3) {
		fprintf(stderr, "usage: sink PORT FILE\n");
		return 2;
	}
	a.sin_port = htons(atoi(argv[1]));
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(lfd, 128)) {
		perror("sink: listen");
		return 1;
	}
	ep = epoll_create1(0);
	ev.events = EPOLLIN;
	ev.data.fd = lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	report(argv[2]);
	for (;;) {
		n = epoll_wait(ep, evs, 64, 200);
		for (i = 0; i < n; i++) {
			fd = evs[i].data.fd;
			if (fd == lfd) {
				len = sizeof(a);
				fd = accept(lfd, (struct sockaddr *)&a, &len);
				if (fd < 0)
					continue;
				if (fd >= MAX_FDS ||
				    (peer_of[fd] = peer_index(a.sin_addr)) < 0) {
					close(fd);
					continue;
				}
				ev.events = EPOLLIN;
				ev.data.fd = fd;
				epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
				continue;
			}
			got = read(fd, buf, sizeof(buf));
			if (got > 0) {
				peers[peer_of[fd]].bytes += got;
				continue;
			}
			epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
			close(fd);
		}
		if (now() - last >= 0.2) {
			report(argv[2]);
			last = now();
		}
	}
}
