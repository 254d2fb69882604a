// SPDX-License-Identifier: GPL-2.0
/*
 * hostnf: play a misbehaving network frontend, from a domU, against
 * dom0's netback.
 *
 *   hostnf ID STEP...
 *
 * ID is one of the domain's vifs (device/vif/ID in xenstore) whose
 * frontend driver was unbound first.  The transmit ring carries 12-byte
 * requests (gref, offset, flags, id, size) and 4-byte responses (id,
 * status); the receive ring 8-byte buffers (id, gref) and responses.
 * Steps:
 *
 *   conn            a normal connection: Initialising, wait for InitWait,
 *                   both rings and a channel, their nodes,
 *                   request-rx-copy, feature-rx-notify and feature-sg,
 *                   Connected, wait for the backend's Connected
 *   rings           grant both rings and bind a channel, nothing more
 *                   ("%t", "%x" and "%p" in xs: are their grants and port)
 *   xs:NODE=VALUE   write a node of the vif's
 *   state:N         write our state
 *   wait:N          wait up to 30 s for the backend's state N
 *   data:N          grant N pages holding an Ethernet frame (broadcast,
 *                   type 0x88b5), read-only
 *   tx:SIZE:FLAGS[:OFFSET[:GREF]]
 *                   write a transmit request of the next data page (or
 *                   of grant GREF)
 *   txx:TYPE:FLAGS  write an extra information slot
 *   push            publish the transmit requests written; notify
 *   prod:N          move the published transmit index by N (signed);
 *                   notify
 *   post:N          post N receive buffers; notify
 *   rsp:STATUS[:N]  wait up to 20 s for N (1) transmit responses other
 *                   than NETIF_RSP_NULL: each must have STATUS
 *   norsp:MS        no transmit response may come within MS milliseconds
 *   flood:N         N notifications
 *   sleep:MS        sleep
 *
 * Each step is printed; the first that fails ends the program with
 * status 1 and a line saying why.
 */
#include "hostfe-common.h"

#define TX_ENTRY	12
#define RX_ENTRY	8
#define MAX_DATA	16
#define RSP_NULL	1

struct ring {
	uint8_t *base;
	uint32_t gref;
	unsigned int nents, entry;
	uint32_t req_pvt, rsp_cons;
};

static struct ring tx, rx;
static uint32_t data_gref[MAX_DATA];
static unsigned int ndata, next_data;
static uint16_t next_id;

static void ring_init(struct ring *r, unsigned int entry)
{
	struct sring_head *h;

	r->base = grant(1, 1, &r->gref, NULL);
	h = (struct sring_head *)r->base;
	h->req_event = 1;
	h->rsp_event = 1;
	r->entry = entry;
	r->nents = (PAGE - HDR) / entry;
	while (r->nents & (r->nents - 1))
		r->nents &= r->nents - 1;
}

static uint8_t *slot(struct ring *r, uint32_t idx)
{
	return r->base + HDR + (idx & (r->nents - 1)) * r->entry;
}

static void publish(struct ring *r, uint32_t idx)
{
	struct sring_head *h = (struct sring_head *)r->base;

	__sync_synchronize();
	h->req_prod = idx;
	__sync_synchronize();
	kick();
}

static void clean_nodes(void)
{
	static const char *const nodes[] = {
		"tx-ring-ref", "rx-ring-ref", "event-channel",
		"event-channel-tx", "event-channel-rx", "request-rx-copy",
		"feature-rx-notify", "feature-sg", "feature-gso-tcpv4",
		"feature-gso-tcpv6", "feature-ipv6-csum-offload",
		"feature-no-csum-offload", "multi-queue-num-queues",
	};

	remove_nodes(nodes, sizeof(nodes) / sizeof(nodes[0]));
}

static void rings_setup(void)
{
	ring_init(&tx, TX_ENTRY);
	ring_init(&rx, RX_ENTRY);
	evt_setup();
}

static void connect_rings(void)
{
	char v[32];

	xs_write("state", "1");
	wait_state(2);
	rings_setup();
	snprintf(v, sizeof(v), "%u", tx.gref);
	xs_write("tx-ring-ref", v);
	snprintf(v, sizeof(v), "%u", rx.gref);
	xs_write("rx-ring-ref", v);
	snprintf(v, sizeof(v), "%u", port);
	xs_write("event-channel", v);
	xs_write("request-rx-copy", "1");
	xs_write("feature-rx-notify", "1");
	xs_write("feature-sg", "1");
	xs_write("state", "4");
	wait_state(4);
}

static void data_setup(unsigned int n)
{
	uint8_t *p;
	unsigned int i, j;

	if (!n || n > MAX_DATA || ndata)
		die("bad data count%s", "");
	p = grant(n, 0, data_gref, NULL);
	for (i = 0; i < n; i++) {
		uint8_t *f = p + i * PAGE;

		memset(f, 0xff, 6);
		memcpy(f + 6, "\x00\x16\x3e\xee\xee\xee", 6);
		f[12] = 0x88;
		f[13] = 0xb5;
		for (j = 14; j < PAGE; j++)
			f[j] = j;
	}
	ndata = n;
}

/* tx:SIZE:FLAGS[:OFFSET[:GREF]] */
static void tx_request(const char *arg)
{
	unsigned int size, flags, offset = 0;
	unsigned long long gref = ~0ULL;
	uint8_t *e = slot(&tx, tx.req_pvt++);

	if (sscanf(arg, "%u:%u:%u:%llu", &size, &flags, &offset, &gref) < 2)
		die("bad tx: %s", arg);
	if (gref == ~0ULL) {
		if (!ndata)
			die("%s", "no data page");
		gref = data_gref[next_data++ % ndata];
	}
	memset(e, 0, TX_ENTRY);
	put32(e, gref);
	put16(e + 4, offset);
	put16(e + 6, flags);
	put16(e + 8, next_id++);
	put16(e + 10, size);
}

/* txx:TYPE:FLAGS */
static void tx_extra(const char *arg)
{
	unsigned int type, flags;
	uint8_t *e = slot(&tx, tx.req_pvt++);

	if (sscanf(arg, "%u:%u", &type, &flags) != 2)
		die("bad txx: %s", arg);
	memset(e, 0, TX_ENTRY);
	e[0] = type;
	e[1] = flags;
	put16(e + 2, 1448);	/* a GSO size, for type 1 */
	e[4] = 1;		/* TCPv4 */
}

static void post_buffers(unsigned int n)
{
	uint32_t gref;
	uint8_t *e;

	while (n--) {
		grant(1, 1, &gref, NULL);
		e = slot(&rx, rx.req_pvt++);
		memset(e, 0, RX_ENTRY);
		put16(e, rx.req_pvt);
		put32(e + 4, gref);
	}
	publish(&rx, rx.req_pvt);
}

/* Wait for @n transmit responses that are not NULL, each with @status. */
static void responses(unsigned int n, int status)
{
	struct sring_head *h = (struct sring_head *)tx.base;
	char what[64];
	int tries = 0;
	uint16_t id;
	int16_t st;

	while (n) {
		if (*(volatile uint32_t *)&h->rsp_prod == tx.rsp_cons) {
			if (++tries > 2000)
				die("%s", "no response within 20 s");
			msleep(10);
			continue;
		}
		__sync_synchronize();
		memcpy(&id, slot(&tx, tx.rsp_cons), 2);
		memcpy(&st, slot(&tx, tx.rsp_cons) + 2, 2);
		tx.rsp_cons++;
		h->rsp_event = tx.rsp_cons + 1;
		if (st == RSP_NULL)
			continue;
		printf("hostfe %s: response id %u status %d\n", dir, id, st);
		if (st != status) {
			snprintf(what, sizeof(what), "%d, not %d", st, status);
			die("response status %s", what);
		}
		n--;
	}
}

static void step(const char *s)
{
	char buf[256], *eq;
	int n;

	printf("hostfe %s: %s\n", dir, s);
	fflush(stdout);
	if (!strcmp(s, "conn")) {
		connect_rings();
	} else if (!strcmp(s, "rings")) {
		rings_setup();
	} else if (!strncmp(s, "xs:", 3)) {
		snprintf(buf, sizeof(buf), "%s", s + 3);
		eq = strchr(buf, '=');
		if (!eq)
			die("bad xs: %s", s);
		*eq++ = 0;
		if (!strcmp(eq, "%t"))
			snprintf(eq, 16, "%u", tx.gref);
		else if (!strcmp(eq, "%x"))
			snprintf(eq, 16, "%u", rx.gref);
		else if (!strcmp(eq, "%p"))
			snprintf(eq, 16, "%u", port);
		xs_write(buf, eq);
	} else if (!strncmp(s, "state:", 6)) {
		xs_write("state", s + 6);
	} else if (!strncmp(s, "wait:", 5)) {
		wait_state(atoi(s + 5));
	} else if (!strncmp(s, "data:", 5)) {
		data_setup(atoi(s + 5));
	} else if (!strncmp(s, "tx:", 3)) {
		tx_request(s + 3);
	} else if (!strncmp(s, "txx:", 4)) {
		tx_extra(s + 4);
	} else if (!strcmp(s, "push")) {
		publish(&tx, tx.req_pvt);
	} else if (!strncmp(s, "prod:", 5)) {
		publish(&tx, ((struct sring_head *)tx.base)->req_prod +
			atoi(s + 5));
	} else if (!strncmp(s, "post:", 5)) {
		post_buffers(atoi(s + 5));
	} else if (!strncmp(s, "rsp:", 4)) {
		const char *c = strchr(s + 4, ':');

		responses(c ? atoi(c + 1) : 1, atoi(s + 4));
	} else if (!strncmp(s, "norsp:", 6)) {
		msleep(atoi(s + 6));
		if (((struct sring_head *)tx.base)->rsp_prod != tx.rsp_cons)
			die("%s", "a response came");
	} else if (!strncmp(s, "flood:", 6)) {
		for (n = atoi(s + 6); n > 0; n--)
			kick();
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
		fprintf(stderr, "usage: hostnf ID STEP...\n");
		return 2;
	}
	common_open("vif", argv[1]);
	clean_nodes();
	for (i = 2; i < argc; i++)
		step(argv[i]);
	printf("hostfe %s: ok\n", dir);
	return 0;
}
