// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: play a misbehaving backend on one shared ring, from dom0.
 *
 *   hostile DOMID GREF PORT ENTRY_BYTES STEP...
 *   hostile xswrite PATH VALUE N
 *
 * Maps the one-page ring that domain DOMID granted as GREF (through
 * /dev/xen/gntdev), binds to its event channel PORT (through
 * /dev/xen/evtchn; not when PORT is 0) and runs the steps in order.
 * ENTRY_BYTES is the size of one ring entry; the layout is Xen's public
 * io/ring.h (four 32-bit indexes, padding to 64 bytes, then a
 * power-of-two number of entries).  The harness uses it to hand a
 * frontend what it must refuse, or must survive.  Steps:
 *
 *   wait          wait up to 30 s for a request not yet taken, and take it
 *   rsp:HEX       write HEX as the next response (not yet published)
 *   echo:STATUS   answer the request taken last as blkif would: its id and
 *                 operation, with STATUS (a signed number)
 *   echo-op:OP    the same with status 0, but operation OP
 *   serve:MS      for MS milliseconds, or until SIGUSR1, answer every
 *                 request as blkif would, with success, at once
 *   push          publish the responses written
 *   prod:N        publish rsp_prod moved by N (signed) from where it is
 *   flip:N        N times: one response more than published, then back
 *   kick          notify the frontend
 *   flood:N       N notifications
 *   map:OFF       map the grant whose reference is the 32-bit word at byte
 *                 OFF of the request taken last (a blkif segment's: 24),
 *                 writable, and keep it mapped
 *   fill:BYTE     write BYTE over the whole page mapped last
 *   unmap         let go of every page mapped
 *   sleep:MS      sleep
 *   trickle:S     the page is a console's (struct xencons_interface, its
 *                 daemon stopped): for S seconds, take one byte of its
 *                 output a second
 *
 * Each step is printed as it is done; a failed step ends the program
 * with status 1 (the mappings go with it).
 *
 * The second form writes VALUE to PATH N times, each a transaction of
 * its own, through xenstored's socket: as fast as a backend's domain
 * could, and so that each write fires its watches (xenstore-write with
 * many pairs writes them in one transaction, which fires them once).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <xen/xen.h>		/* domid_t, for evtchn.h */
#include <xen/sys/evtchn.h>
#include <xen/sys/gntdev.h>
#include <xen/io/xs_wire.h>

#define PAGE		4096
#define RING_HEADER	64
#define MAX_MAPS	16

struct sring_head {
	uint32_t req_prod, req_event, rsp_prod, rsp_event;
};

static int gnt, evt, port;
static unsigned int domid;
static volatile sig_atomic_t stop_serving;

static void on_usr1(int sig)
{
	(void)sig;
	stop_serving = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "hostile: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long number(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "hostile: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* Map grant @ref of the domain, one page; NULL on failure. */
static void *map_grant(uint32_t ref, uint64_t *index)
{
	struct ioctl_gntdev_map_grant_ref map = { .count = 1 };
	void *p;

	map.refs[0].domid = domid;
	map.refs[0].ref = ref;
	if (ioctl(gnt, IOCTL_GNTDEV_MAP_GRANT_REF, &map))
		return NULL;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gnt,
		 map.index);
	if (p == MAP_FAILED) {
		struct ioctl_gntdev_unmap_grant_ref un = {
			.index = map.index, .count = 1,
		};

		ioctl(gnt, IOCTL_GNTDEV_UNMAP_GRANT_REF, &un);
		return NULL;
	}
	*index = map.index;
	return p;
}

static void kick(void)
{
	struct ioctl_evtchn_notify notify = { .port = port };

	if (!port)
		return;	/* no channel bound */
	if (ioctl(evt, IOCTL_EVTCHN_NOTIFY, &notify))
		die("notifying");
}

static void publish(struct sring_head *head, uint32_t prod)
{
	__atomic_store_n(&head->rsp_prod, prod, __ATOMIC_SEQ_CST);
}

/*
 * Answer @req as blkif would, in the next response slot @slot (which may
 * be @req's own: requests and responses share the entries): u64 id at 8,
 * u8 operation at 0 of a request; u64 id at 0, u8 operation at 8, s16
 * status at 10 of a response.
 */
static void blk_answer(unsigned char *slot, const unsigned char *req,
		       uint8_t op, int16_t status)
{
	unsigned char rsp[12] = { 0 };

	memcpy(rsp, req + 8, 8);
	rsp[8] = op;
	memcpy(rsp + 10, &status, 2);
	memcpy(slot, rsp, sizeof(rsp));
}

/* Console page: out_cons and out_prod follow in[1024], out[2048] and
 * in_cons, in_prod.
 */
#define CONS_OUT_CONS	3080
#define CONS_OUT_PROD	3084

/* Requests xswrite sends before it reads their replies. */
#define XS_WINDOW	256

/* Read exactly @len bytes of xenstored's socket, or die. */
static void xs_read_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	for (; len; len -= n, buf = (char *)buf + n) {
		n = read(fd, buf, len);
		if (n <= 0)
			die("reading xenstored's reply");
	}
}

/* Take one reply of xenstored's: 0 when it is a write's. */
static int xs_reply(int fd, long i, const char *path)
{
	char reply[XENSTORE_PAYLOAD_MAX];
	struct xsd_sockmsg msg;

	xs_read_all(fd, &msg, sizeof(msg));
	if (msg.len > sizeof(reply)) {
		fprintf(stderr, "hostile: a reply of %u bytes\n", msg.len);
		return 1;
	}
	xs_read_all(fd, reply, msg.len);
	if (msg.type != XS_WRITE) {
		fprintf(stderr, "hostile: write %ld of %s: reply type %u\n",
			i, path, msg.type);
		return 1;
	}
	return 0;
}

static int xswrite(const char *path, const char *value, long n)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t plen = strlen(path) + 1, vlen = strlen(value);
	char buf[XENSTORE_PAYLOAD_MAX];
	struct xsd_sockmsg msg;
	long i, j;
	int fd;

	if (plen + vlen > sizeof(buf)) {
		fprintf(stderr, "hostile: path and value too long\n");
		return 2;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/run/xenstored/socket");
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connecting to xenstored");
	memcpy(buf, path, plen);
	memcpy(buf + plen, value, vlen);
	/*
	 * XS_WINDOW requests, then their replies, and again: as fast as it
	 * goes, without filling the socket both ways.
	 */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && j < i + XS_WINDOW; j++) {
			msg = (struct xsd_sockmsg) {
				.type = XS_WRITE, .req_id = j,
				.len = plen + vlen,
			};
			if (write(fd, &msg, sizeof(msg)) != sizeof(msg) ||
			    write(fd, buf, plen + vlen) != (ssize_t)(plen + vlen))
				die("writing to xenstored");
		}
		for (j = i; j < n && j < i + XS_WINDOW; j++)
			if (xs_reply(fd, j, path))
				return 1;
	}
	printf("hostile: %s written %ld times\n", path, n);
	return 0;
}

int main(int argc, char **argv)
{
	struct ioctl_evtchn_bind_interdomain bind;
	unsigned char *maps[MAX_MAPS], *req = NULL;
	uint64_t index[MAX_MAPS];
	unsigned int entry, nr, i, j, nmaps = 0;
	uint32_t req_cons = 0, rsp_pvt, gref;
	struct sring_head *head;
	char *ring;

	if (argc == 5 && !strcmp(argv[1], "xswrite"))
		return xswrite(argv[2], argv[3], number(argv[4], "count"));
	if (argc < 6) {
		fprintf(stderr, "usage: hostile DOMID GREF PORT ENTRY_BYTES STEP...\n");
		return 2;
	}
	domid = number(argv[1], "domain");
	gref = number(argv[2], "grant");
	bind.remote_domain = domid;
	bind.remote_port = number(argv[3], "port");
	entry = number(argv[4], "entry size");
	if (!entry || entry > PAGE - RING_HEADER) {
		fprintf(stderr, "hostile: entry size %u does not fit\n", entry);
		return 2;
	}
	for (nr = 1; nr * 2 * entry <= PAGE - RING_HEADER; nr *= 2)
		;

	gnt = open("/dev/xen/gntdev", O_RDWR);
	if (gnt < 0)
		die("/dev/xen/gntdev");
	ring = map_grant(gref, &index[0]);
	if (!ring)
		die("mapping the ring");
	head = (struct sring_head *)ring;
	evt = open("/dev/xen/evtchn", O_RDWR);
	if (evt < 0)
		die("/dev/xen/evtchn");
	port = bind.remote_port ? ioctl(evt, IOCTL_EVTCHN_BIND_INTERDOMAIN,
					&bind) : 0;
	if (port < 0)
		die("binding the event channel");
	signal(SIGUSR1, on_usr1);
	rsp_pvt = __atomic_load_n(&head->rsp_prod, __ATOMIC_ACQUIRE);
	req_cons = rsp_pvt;
	printf("hostile: domain %u ring %u (%u entries of %u bytes), port %u\n",
	       domid, gref, nr, entry, bind.remote_port);

	for (i = 5; i < (unsigned int)argc; i++) {
		const char *step = argv[i], *arg = strchr(step, ':');
		/* Every argument but a response's bytes is a number. */
		long n = arg && strncmp(step, "rsp:", 4) ?
			 number(arg + 1, step) : 0;

		printf("hostile: %s\n", step);
		fflush(stdout);
		if (!strcmp(step, "wait")) {
			for (j = 0; __atomic_load_n(&head->req_prod,
						    __ATOMIC_ACQUIRE) == req_cons;
			     j++) {
				if (j == 300) {
					fprintf(stderr, "hostile: no request in 30 s\n");
					return 1;
				}
				usleep(100000);
			}
			req = (unsigned char *)ring + RING_HEADER +
			      (req_cons++ & (nr - 1)) * entry;
		} else if (!strncmp(step, "rsp:", 4)) {
			unsigned char *slot = (unsigned char *)ring +
					      RING_HEADER +
					      (rsp_pvt++ & (nr - 1)) * entry;
			size_t len = strlen(arg + 1) / 2;

			if (len > entry || strlen(arg + 1) % 2) {
				fprintf(stderr, "hostile: %s does not fit an entry\n",
					step);
				return 2;
			}
			for (j = 0; j < len; j++)
				if (sscanf(arg + 1 + 2 * j, "%2hhx", &slot[j]) != 1) {
					fprintf(stderr, "hostile: bad hex in %s\n",
						step);
					return 2;
				}
		} else if (!strncmp(step, "echo", 4)) {
			unsigned char *slot = (unsigned char *)ring +
					      RING_HEADER +
					      (rsp_pvt++ & (nr - 1)) * entry;
			bool op = !strncmp(step, "echo-op:", 8);

			if (!req || (!op && strncmp(step, "echo:", 5))) {
				fprintf(stderr, "hostile: cannot %s\n", step);
				return 2;
			}
			blk_answer(slot, req, op ? n : req[0], op ? 0 : n);
		} else if (!strncmp(step, "serve:", 6)) {
			struct timespec t0, t;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			do {
				uint32_t prod = __atomic_load_n(&head->req_prod,
								__ATOMIC_ACQUIRE);

				for (j = 0; req_cons != prod; j++) {
					req = (unsigned char *)ring + RING_HEADER +
					      (req_cons++ & (nr - 1)) * entry;
					blk_answer((unsigned char *)ring +
						   RING_HEADER +
						   (rsp_pvt++ & (nr - 1)) * entry,
						   req, req[0], 0);
				}
				if (j) {
					publish(head, rsp_pvt);
					kick();
				}
				usleep(10000);
				clock_gettime(CLOCK_MONOTONIC, &t);
			} while (!stop_serving &&
				 (t.tv_sec - t0.tv_sec) * 1000 +
				 (t.tv_nsec - t0.tv_nsec) / 1000000 < n);
			stop_serving = 0;
		} else if (!strcmp(step, "push")) {
			publish(head, rsp_pvt);
		} else if (!strncmp(step, "prod:", 5)) {
			publish(head, __atomic_load_n(&head->rsp_prod,
						      __ATOMIC_ACQUIRE) + n);
		} else if (!strncmp(step, "flip:", 5)) {
			uint32_t base = __atomic_load_n(&head->rsp_prod,
							__ATOMIC_ACQUIRE);

			for (j = 0; j < n; j++) {
				publish(head, base + 1);
				kick();
				publish(head, base);
				kick();
			}
		} else if (!strcmp(step, "kick")) {
			kick();
		} else if (!strncmp(step, "flood:", 6)) {
			for (j = 0; j < n; j++)
				kick();
		} else if (!strncmp(step, "map:", 4)) {
			uint32_t ref;

			if (!req || n < 0 || n + 4 > (long)entry ||
			    nmaps + 1 >= MAX_MAPS) {
				fprintf(stderr, "hostile: cannot %s\n", step);
				return 2;
			}
			memcpy(&ref, req + n, 4);
			nmaps++;
			maps[nmaps] = map_grant(ref, &index[nmaps]);
			if (!maps[nmaps])
				die("mapping the request's grant");
			printf("hostile: grant %u mapped\n", ref);
		} else if (!strncmp(step, "fill:", 5)) {
			if (!nmaps) {
				fprintf(stderr, "hostile: fill with nothing mapped\n");
				return 2;
			}
			memset(maps[nmaps], (int)n, PAGE);
		} else if (!strcmp(step, "unmap")) {
			for (; nmaps; nmaps--) {
				struct ioctl_gntdev_unmap_grant_ref un = {
					.index = index[nmaps], .count = 1,
				};

				munmap(maps[nmaps], PAGE);
				ioctl(gnt, IOCTL_GNTDEV_UNMAP_GRANT_REF, &un);
			}
		} else if (!strncmp(step, "trickle:", 8)) {
			uint32_t *cons = (uint32_t *)(ring + CONS_OUT_CONS);
			uint32_t *prod = (uint32_t *)(ring + CONS_OUT_PROD);

			for (j = 0; j < n; j++) {
				sleep(1);
				if (__atomic_load_n(cons, __ATOMIC_ACQUIRE) !=
				    __atomic_load_n(prod, __ATOMIC_ACQUIRE))
					__atomic_fetch_add(cons, 1,
							   __ATOMIC_SEQ_CST);
			}
		} else if (!strncmp(step, "sleep:", 6)) {
			struct timespec ts = {
				.tv_sec = n / 1000, .tv_nsec = n % 1000 * 1000000,
			};

			nanosleep(&ts, NULL);
		} else {
			fprintf(stderr, "hostile: unknown step '%s'\n", step);
			return 2;
		}
	}
	printf("hostile: done; rsp_prod %u\n",
	       __atomic_load_n(&head->rsp_prod, __ATOMIC_ACQUIRE));
	return 0;
}
