// SPDX-License-Identifier: GPL-2.0
/*
 * hostfe: play a misbehaving block frontend, from a domU, against dom0's
 * blkback.
 *
 *   hostfe VDEV STEP...
 *
 * VDEV is one of the domain's disks (device/vbd/VDEV in xenstore) whose
 * frontend driver was unbound first: the backend is Closed or InitWait.
 * Pages are granted to the backend's domain through /dev/xen/gntalloc,
 * the event channel comes from /dev/xen/evtchn and xenstore is spoken to
 * through /dev/xen/xenbus.  Requests use blkif's 64-bit layout.  The
 * ring nodes the displaced driver left are removed first.  Steps:
 *
 *   conn            a normal connection: state Initialising, wait for
 *                   the backend's InitWait, a one-page ring and a
 *                   channel, their nodes, Initialised, wait for Connected
 *   ring:ORDER      grant a ring of 2^ORDER pages ("%r" in xs: is its
 *                   first grant)
 *   evt             bind a channel to the backend ("%p" in xs:)
 *   xs:NODE=VALUE   write a node of the device's
 *   state:N         write our state
 *   wait:N          wait up to 30 s for the backend's state N
 *   data:N[:ro]     grant N data pages (read-only with :ro); the segments
 *                   of later requests use them in turn
 *   rq:OP:NSEG:SECTOR[:FIRST:LAST[:GREF]]
 *                   write a request: NSEG in its count, min(NSEG, 11)
 *                   segments of sectors FIRST to LAST (0 to 7) of the
 *                   data pages (or of grant GREF)
 *   ind:OP:NSEG:SECTOR[:FIRST:LAST]
 *                   an indirect request carrying OP: a granted page of
 *                   min(NSEG, 512) descriptors
 *   disc:SECTOR:NR:FLAG
 *                   a discard
 *   push            publish the requests written; notify
 *   prod:N          move the published index by N (signed), nothing
 *                   written; notify
 *   rsp:STATUS[:N]  wait up to 20 s for the next N (1) responses: each
 *                   must name the next request and have STATUS
 *   rspany:N        wait for N responses, whatever their status
 *   norsp:MS        no response may come within MS milliseconds
 *   flood:N         N notifications
 *   revoke          end the data pages' grants
 *   sleep:MS        sleep
 *
 * Each step is printed; the first that fails ends the program with
 * status 1 and a line saying why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xen/xen.h>
#include <xen/sys/evtchn.h>
#include <xen/sys/gntalloc.h>
#include <xen/io/xs_wire.h>

#define PAGE		4096
#define HDR		64	/* the shared ring's indexes and padding */
#define ENTRY		112	/* one blkif request or response */
#define MAX_DATA	64

struct sring_head {
	uint32_t req_prod, req_event, rsp_prod, rsp_event;
};

static int xsfd, gafd, evfd;
static char dir[64], bedir[128];
static unsigned int bedom, port, nents;
static uint8_t *ring;
static uint32_t ring_gref;
static uint32_t req_pvt, rsp_cons;
static uint64_t next_id = 1, want_id = 1;
static uint32_t data_gref[MAX_DATA];
static uint64_t data_index;
static void *data_addr;
static unsigned int ndata, next_data;

static void die(const char *fmt, const char *arg)
{
	printf("hostfe %s: FAILED: ", dir);
	printf(fmt, arg);
	printf("\n");
	fflush(stdout);
	exit(1);
}

/* One xenstore request; the reply's payload, NUL-terminated, in @out. */
static int xs(uint32_t type, const char *a, const char *b, char *out,
	      size_t outlen)
{
	char buf[4096];
	struct xsd_sockmsg m = { .type = type, .req_id = 7 };
	size_t la = strlen(a) + 1, lb = b ? strlen(b) : 0;

	memcpy(buf + sizeof(m), a, la);
	if (b)
		memcpy(buf + sizeof(m) + la, b, lb);
	m.len = la + lb;
	memcpy(buf, &m, sizeof(m));
	if (write(xsfd, buf, sizeof(m) + m.len) != (ssize_t)(sizeof(m) + m.len))
		return -1;
	for (;;) {
		if (read(xsfd, &m, sizeof(m)) != sizeof(m) || m.len >= sizeof(buf))
			return -1;
		if (m.len && read(xsfd, buf, m.len) != (ssize_t)m.len)
			return -1;
		buf[m.len] = 0;
		if (m.type == XS_WATCH_EVENT)
			continue;
		if (m.type == XS_ERROR)
			return -1;
		if (out)
			snprintf(out, outlen, "%s", buf);
		return 0;
	}
}

static int xs_read(const char *path, char *out, size_t len)
{
	return xs(XS_READ, path, NULL, out, len);
}

static void xs_write(const char *node, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, node);
	if (xs(XS_WRITE, path, val, NULL, 0))
		die("writing %s", path);
}

/*
 * Remove what the frontend driver we displaced left: its rings' nodes
 * would otherwise be read as ours.
 */
static void clean_nodes(void)
{
	static const char *const nodes[] = {
		"ring-ref", "ring-page-order", "event-channel", "protocol",
		"multi-queue-num-queues", "feature-persistent",
	};
	char path[256];
	unsigned int i;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, nodes[i]);
		xs(XS_RM, path, NULL, NULL, 0);
	}
	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "%s/ring-ref%u", dir, i);
		xs(XS_RM, path, NULL, NULL, 0);
		snprintf(path, sizeof(path), "%s/queue-%u", dir, i);
		xs(XS_RM, path, NULL, NULL, 0);
	}
}

static unsigned int be_state(void)
{
	char path[256], v[32];

	snprintf(path, sizeof(path), "%s/state", bedir);
	return xs_read(path, v, sizeof(v)) ? 0 : atoi(v);
}

static void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void wait_state(unsigned int want)
{
	char s[16];
	int i;

	for (i = 0; i < 300; i++) {
		if (be_state() == want)
			return;
		msleep(100);
	}
	snprintf(s, sizeof(s), "%u", be_state());
	die("backend state %s, not the one waited for", s);
}

/* Grant @count pages to the backend; their grants in @grefs. */
static void *grant(unsigned int count, int writable, uint32_t *grefs,
		   uint64_t *index)
{
	struct ioctl_gntalloc_alloc_gref *a;
	void *p;

	a = calloc(1, sizeof(*a) + count * sizeof(uint32_t));
	a->domid = bedom;
	a->flags = writable ? GNTALLOC_FLAG_WRITABLE : 0;
	a->count = count;
	if (ioctl(gafd, IOCTL_GNTALLOC_ALLOC_GREF, a))
		die("gntalloc: %s", strerror(errno));
	p = mmap(NULL, count * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gafd,
		 a->index);
	if (p == MAP_FAILED)
		die("mmap of granted pages: %s", strerror(errno));
	memcpy(grefs, a->gref_ids, count * sizeof(uint32_t));
	if (index)
		*index = a->index;
	free(a);
	return p;
}

static void ring_setup(unsigned int order)
{
	uint32_t grefs[16];
	unsigned int n = 1u << order;
	struct sring_head *h;

	ring = grant(n, 1, grefs, NULL);
	ring_gref = grefs[0];
	h = (struct sring_head *)ring;
	h->req_event = 1;
	h->rsp_event = 1;
	nents = (n * PAGE - HDR) / ENTRY;
	while (nents & (nents - 1))
		nents &= nents - 1;
}

static void evt_setup(void)
{
	struct ioctl_evtchn_bind_unbound_port b = { .remote_domain = bedom };
	int rc = ioctl(evfd, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &b);

	if (rc < 0)
		die("binding a channel: %s", strerror(errno));
	port = rc;
}

static void kick(void)
{
	struct ioctl_evtchn_notify n = { .port = port };

	if (ioctl(evfd, IOCTL_EVTCHN_NOTIFY, &n))
		die("notify: %s", strerror(errno));
}

static uint8_t *slot(uint32_t idx)
{
	return ring + HDR + (idx & (nents - 1)) * ENTRY;
}

static uint32_t next_data_gref(void)
{
	if (!ndata)
		die("%s", "no data page");
	return data_gref[next_data++ % ndata];
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }

/* rq:OP:NSEG:SECTOR[:FIRST:LAST[:GREF]] */
static void request(const char *arg)
{
	unsigned int op, nseg, first = 0, last = 7, i;
	unsigned long long sector, gref = ~0ULL;
	uint8_t *e = slot(req_pvt++);
	int n;

	n = sscanf(arg, "%u:%u:%llu:%u:%u:%llu", &op, &nseg, &sector, &first,
		   &last, &gref);
	if (n < 3)
		die("bad rq: %s", arg);
	memset(e, 0, ENTRY);
	e[0] = op;
	e[1] = nseg;
	put64(e + 8, next_id++);
	put64(e + 16, sector);
	for (i = 0; i < nseg && i < 11; i++) {
		put32(e + 24 + 8 * i, gref != ~0ULL ? gref : next_data_gref());
		e[28 + 8 * i] = first;
		e[29 + 8 * i] = last;
	}
}

/* ind:OP:NSEG:SECTOR[:FIRST:LAST] */
static void indirect(const char *arg)
{
	unsigned int op, nseg, first = 0, last = 7, i;
	unsigned long long sector;
	uint8_t *e = slot(req_pvt++), *d;
	uint32_t dgref;

	if (sscanf(arg, "%u:%u:%llu:%u:%u", &op, &nseg, &sector, &first,
		   &last) < 3)
		die("bad ind: %s", arg);
	d = grant(1, 0, &dgref, NULL);
	for (i = 0; i < nseg && i < 512; i++) {
		put32(d + 8 * i, next_data_gref());
		d[8 * i + 4] = first;
		d[8 * i + 5] = last;
	}
	memset(e, 0, ENTRY);
	e[0] = 6;	/* BLKIF_OP_INDIRECT */
	e[1] = op;
	put16(e + 2, nseg);
	put64(e + 8, next_id++);
	put64(e + 16, sector);
	put32(e + 28, dgref);
}

/* disc:SECTOR:NR:FLAG */
static void discard(const char *arg)
{
	unsigned long long sector, nr;
	unsigned int flag;
	uint8_t *e = slot(req_pvt++);

	if (sscanf(arg, "%llu:%llu:%u", &sector, &nr, &flag) != 3)
		die("bad disc: %s", arg);
	memset(e, 0, ENTRY);
	e[0] = 5;	/* BLKIF_OP_DISCARD */
	e[1] = flag;
	put64(e + 8, next_id++);
	put64(e + 16, sector);
	put64(e + 24, nr);
}

static void publish(uint32_t idx)
{
	struct sring_head *h = (struct sring_head *)ring;

	__sync_synchronize();
	h->req_prod = idx;
	__sync_synchronize();
	kick();
}

/* Wait for @n responses; with @check, each names the next id and has @status. */
static void responses(unsigned int n, int check, int status)
{
	struct sring_head *h = (struct sring_head *)ring;
	char what[96];
	int tries = 0;

	while (n) {
		uint64_t id;
		int16_t st;

		if (*(volatile uint32_t *)&h->rsp_prod == rsp_cons) {
			if (++tries > 2000)
				die("%s", "no response within 20 s");
			msleep(10);
			continue;
		}
		__sync_synchronize();
		memcpy(&id, slot(rsp_cons), 8);
		memcpy(&st, slot(rsp_cons) + 10, 2);
		rsp_cons++;
		h->rsp_event = rsp_cons + 1;
		if (check && (id != want_id || st != status)) {
			snprintf(what, sizeof(what), "id %llu status %d, not %llu and %d",
				 (unsigned long long)id, st,
				 (unsigned long long)want_id, status);
			die("response %s", what);
		}
		printf("hostfe %s: response id %llu status %d\n", dir,
		       (unsigned long long)id, st);
		want_id++;
		n--;
	}
}

static void connect_ring(void)
{
	char v[32];

	xs_write("state", "1");
	wait_state(2);
	ring_setup(0);
	evt_setup();
	snprintf(v, sizeof(v), "%u", ring_gref);
	xs_write("ring-ref", v);
	snprintf(v, sizeof(v), "%u", port);
	xs_write("event-channel", v);
	xs_write("protocol", "x86_64-abi");
	xs_write("state", "3");
	wait_state(4);
}

static void step(const char *s)
{
	char buf[256], *eq;
	int n;

	printf("hostfe %s: %s\n", dir, s);
	fflush(stdout);
	if (!strcmp(s, "conn")) {
		connect_ring();
	} else if (!strncmp(s, "ring:", 5)) {
		ring_setup(atoi(s + 5));
	} else if (!strcmp(s, "evt")) {
		evt_setup();
	} else if (!strncmp(s, "xs:", 3)) {
		snprintf(buf, sizeof(buf), "%s", s + 3);
		eq = strchr(buf, '=');
		if (!eq)
			die("bad xs: %s", s);
		*eq++ = 0;
		if (!strcmp(eq, "%r"))
			snprintf(eq, 16, "%u", ring_gref);
		else if (!strcmp(eq, "%p"))
			snprintf(eq, 16, "%u", port);
		xs_write(buf, eq);
	} else if (!strncmp(s, "state:", 6)) {
		xs_write("state", s + 6);
	} else if (!strncmp(s, "wait:", 5)) {
		wait_state(atoi(s + 5));
	} else if (!strncmp(s, "data:", 5)) {
		n = atoi(s + 5);
		if (n <= 0 || n > MAX_DATA || ndata)
			die("bad data: %s", s);
		data_addr = grant(n, !strstr(s + 5, ":ro"), data_gref,
				  &data_index);
		memset(data_addr, 0x5a, n * PAGE);
		ndata = n;
	} else if (!strncmp(s, "rq:", 3)) {
		request(s + 3);
	} else if (!strncmp(s, "ind:", 4)) {
		indirect(s + 4);
	} else if (!strncmp(s, "disc:", 5)) {
		discard(s + 5);
	} else if (!strcmp(s, "push")) {
		publish(req_pvt);
	} else if (!strncmp(s, "prod:", 5)) {
		publish(((struct sring_head *)ring)->req_prod + atoi(s + 5));
	} else if (!strncmp(s, "rsp:", 4)) {
		int st = atoi(s + 4);
		const char *c = strchr(s + 4, ':');

		responses(c ? atoi(c + 1) : 1, 1, st);
	} else if (!strncmp(s, "rspany:", 7)) {
		responses(atoi(s + 7), 0, 0);
	} else if (!strncmp(s, "norsp:", 6)) {
		msleep(atoi(s + 6));
		if (((struct sring_head *)ring)->rsp_prod != rsp_cons)
			die("%s", "a response came");
	} else if (!strncmp(s, "flood:", 6)) {
		for (n = atoi(s + 6); n > 0; n--)
			kick();
	} else if (!strcmp(s, "revoke")) {
		struct ioctl_gntalloc_dealloc_gref d = {
			.index = data_index, .count = ndata,
		};

		if (ioctl(gafd, IOCTL_GNTALLOC_DEALLOC_GREF, &d) ||
		    munmap(data_addr, ndata * PAGE))
			die("revoke: %s", strerror(errno));
	} else if (!strncmp(s, "sleep:", 6)) {
		msleep(atoi(s + 6));
	} else {
		die("unknown step %s", s);
	}
}

int main(int argc, char **argv)
{
	char path[128], v[128];
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: hostfe VDEV STEP...\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "device/vbd/%s", argv[1]);
	xsfd = open("/dev/xen/xenbus", O_RDWR);
	gafd = open("/dev/xen/gntalloc", O_RDWR);
	evfd = open("/dev/xen/evtchn", O_RDWR);
	if (xsfd < 0 || gafd < 0 || evfd < 0)
		die("%s", "cannot open /dev/xen/xenbus, gntalloc or evtchn");
	snprintf(path, sizeof(path), "%s/backend", dir);
	if (xs_read(path, bedir, sizeof(bedir)))
		die("no %s", path);
	snprintf(path, sizeof(path), "%s/backend-id", dir);
	if (xs_read(path, v, sizeof(v)))
		die("no %s", path);
	bedom = atoi(v);
	clean_nodes();
	for (i = 2; i < argc; i++)
		step(argv[i]);
	printf("hostfe %s: ok\n", dir);
	return 0;
}
