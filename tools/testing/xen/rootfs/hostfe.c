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
 *   revoke          end the data pages' grants; a later data:N grants
 *                   new ones (the kernel may give the old references to
 *                   anyone, so no step should name them again)
 *   sleep:MS        sleep
 *
 * Each step is printed; the first that fails ends the program with
 * status 1 and a line saying why.
 */
#include "hostfe-common.h"

#define ENTRY		112	/* one blkif request or response */
#define MAX_DATA	64

static unsigned int nents;
static uint8_t *ring;
static uint32_t ring_gref;
static uint32_t req_pvt, rsp_cons;
static uint64_t next_id = 1, want_id = 1;
static uint32_t data_gref[MAX_DATA];
static uint64_t data_index;
static void *data_addr;
static unsigned int ndata, next_data;

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
	char node[32];
	unsigned int i;

	remove_nodes(nodes, sizeof(nodes) / sizeof(nodes[0]));
	for (i = 0; i < 16; i++) {
		snprintf(node, sizeof(node), "ring-ref%u", i);
		remove_nodes((const char *const[]){ node }, 1);
		snprintf(node, sizeof(node), "queue-%u", i);
		remove_nodes((const char *const[]){ node }, 1);
	}
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
		ndata = 0;
		next_data = 0;
	} else if (!strncmp(s, "sleep:", 6)) {
		msleep(atoi(s + 6));
	} else {
		die("unknown step %s", s);
	}
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: hostfe VDEV STEP...\n");
		return 2;
	}
	common_open("vbd", argv[1]);
	clean_nodes();
	for (i = 2; i < argc; i++)
		step(argv[i]);
	printf("hostfe %s: ok\n", dir);
	return 0;
}
