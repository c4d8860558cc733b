// SPDX-License-Identifier: GPL-2.0
/*
 * rc-ping: a latency probe that sleeps on completion events and cares
 * only that both completions of a round trip arrived, not in which order.
 *
 *   rc-ping -d DEV -x GID_INDEX -p PORT [-n ITERS] [-s SIZE] [-u TIMEOUT]
 *           [SERVER]
 *
 * Without SERVER it waits for one client on TCP PORT; with it, it connects
 * there. The two exchange their QP's number, PSN and GID over TCP, connect
 * one RC QP each and ping-pong ITERS (default 1000) SENDs of SIZE bytes
 * (default 2). Both queues share one CQ, so a reply that completes before
 * the ACK of the ping it answers is no reason to stall (ib_send_lat -e
 * waits for its send CQ's event first, and loses count if the reply's comes
 * first). TIMEOUT is the QP's local ACK timeout code (default 14).
 *
 * The client prints, in the form of perftest's -H, "#, usec" and then
 * "N, T" for each round trip, T being half of it in microseconds, as
 * perftest reports latency. A side that sees no completion for 10 s says
 * so and fails.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define QUIET_MS	10000
#define SQ_DEPTH	16
#define CQ_DEPTH	(2 * SQ_DEPTH + 2)

struct peer {
	uint32_t qpn;
	uint32_t psn;
	uint8_t gid[16];
};

struct probe {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *buf;
	unsigned int size;
	unsigned long sent;	/* send completions */
	unsigned long received;	/* receive completions */
};

static void die(const char *what)
{
	fprintf(stderr, "rc-ping: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list)
		die("ibv_get_device_list");
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx) {
		fprintf(stderr, "rc-ping: no device %s\n", name);
		exit(1);
	}
	return ctx;
}

static void post_recv(struct probe *p)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p->buf + p->size,
		.length = p->size,
		.lkey = p->mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	errno = ibv_post_recv(p->qp, &wr, &bad);
	if (errno)
		die("ibv_post_recv");
}

static void post_send(struct probe *p)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p->buf,
		.length = p->size,
		.lkey = p->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (p->size <= 64)
		wr.send_flags |= IBV_SEND_INLINE;
	errno = ibv_post_send(p->qp, &wr, &bad);
	if (errno)
		die("ibv_post_send");
}

/* Take what the CQ holds; fail on an error completion. */
static void drain(struct probe *p)
{
	struct ibv_wc wc[CQ_DEPTH];
	int n, i;

	while ((n = ibv_poll_cq(p->cq, CQ_DEPTH, wc)) > 0) {
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "rc-ping: %s completion: %s\n",
					wc[i].opcode == IBV_WC_SEND ? "send" :
								      "receive",
					ibv_wc_status_str(wc[i].status));
				exit(1);
			}
			if (wc[i].opcode == IBV_WC_SEND)
				p->sent++;
			else
				p->received++;
		}
	}
	if (n < 0) {
		errno = -n;
		die("ibv_poll_cq");
	}
}

/* Sleep on the CQ's events until @sent and @received completions came. */
static void wait_for(struct probe *p, unsigned long sent,
		     unsigned long received)
{
	struct pollfd pfd = { .fd = p->ch->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *cq_ctx;

	for (;;) {
		drain(p);
		if (p->sent >= sent && p->received >= received)
			return;
		if (poll(&pfd, 1, QUIET_MS) != 1) {
			fprintf(stderr,
				"rc-ping: no completion for %d s: %lu of %lu sends, %lu of %lu receives completed\n",
				QUIET_MS / 1000, p->sent, sent, p->received,
				received);
			exit(1);
		}
		if (ibv_get_cq_event(p->ch, &cq, &cq_ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(cq, 0))
			die("ibv_req_notify_cq");
	}
}

static void setup(struct probe *p, const char *dev)
{
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = SQ_DEPTH,
			.max_recv_wr = 2,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = 64,
		},
	};

	p->ctx = open_device(dev);
	p->pd = ibv_alloc_pd(p->ctx);
	if (!p->pd)
		die("ibv_alloc_pd");
	p->ch = ibv_create_comp_channel(p->ctx);
	if (!p->ch)
		die("ibv_create_comp_channel");
	p->cq = ibv_create_cq(p->ctx, CQ_DEPTH, NULL, p->ch, 0);
	if (!p->cq)
		die("ibv_create_cq");
	if (ibv_req_notify_cq(p->cq, 0))
		die("ibv_req_notify_cq");
	init.send_cq = p->cq;
	init.recv_cq = p->cq;
	p->qp = ibv_create_qp(p->pd, &init);
	if (!p->qp)
		die("ibv_create_qp");
	p->buf = calloc(2, p->size);
	if (!p->buf)
		die("calloc");
	p->mr = ibv_reg_mr(p->pd, p->buf, 2 * p->size, IBV_ACCESS_LOCAL_WRITE);
	if (!p->mr)
		die("ibv_reg_mr");
}

static void modify(struct probe *p, struct ibv_qp_attr *attr, int mask,
		   const char *state)
{
	errno = ibv_modify_qp(p->qp, attr, mask);
	if (errno)
		die(state);
}

static void connect_qp(struct probe *p, int gid_index, uint32_t psn,
		       const struct peer *remote, int timeout)
{
	struct ibv_port_attr port;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };

	if (ibv_query_port(p->ctx, 1, &port))
		die("ibv_query_port");
	a.path_mtu = port.active_mtu;
	a.dest_qp_num = remote->qpn;
	a.rq_psn = remote->psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	memcpy(a.ah_attr.grh.dgid.raw, remote->gid, 16);
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	modify(p, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		      IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, "RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = psn;
	a.max_rd_atomic = 1;
	modify(p, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
		      IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
		      IBV_QP_MAX_QP_RD_ATOMIC, "RTS");
}

/* The TCP connection the two sides meet over. */
static int meet(const char *server, const char *port)
{
	struct addrinfo hints = {
		.ai_family = AF_INET,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = server ? 0 : AI_PASSIVE,
	}, *ai;
	int fd, one = 1, c;

	c = getaddrinfo(server, port, &hints, &ai);
	if (c) {
		fprintf(stderr, "rc-ping: %s\n", gai_strerror(c));
		exit(1);
	}
	fd = socket(ai->ai_family, ai->ai_socktype, 0);
	if (fd < 0)
		die("socket");
	if (server) {
		if (connect(fd, ai->ai_addr, ai->ai_addrlen))
			die("connect");
		freeaddrinfo(ai);
		return fd;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1))
		die("bind/listen");
	freeaddrinfo(ai);
	c = accept(fd, NULL, NULL);
	if (c < 0)
		die("accept");
	close(fd);
	return c;
}

static void io(int fd, void *buf, size_t len, int out)
{
	char *b = buf;
	ssize_t n;

	while (len) {
		n = out ? write(fd, b, len) : read(fd, b, len);
		if (n <= 0) {
			if (!n)
				errno = ECONNRESET;
			die(out ? "write to peer" : "read from peer");
		}
		b += n;
		len -= n;
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void usage(void)
{
	fprintf(stderr, "usage: rc-ping -d DEV -x GID_INDEX -p PORT [-n ITERS] [-s SIZE] [-u TIMEOUT] [SERVER]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *port = NULL, *server_addr;
	int gid_index = -1, timeout = 14, fd, opt;
	struct ibv_qp_attr init_attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE,
	};
	struct probe p = { .size = 2 };
	unsigned long iters = 1000, i;
	struct peer me, remote;
	union ibv_gid gid;
	bool client;
	char go = 1;
	double t0;

	while ((opt = getopt(argc, argv, "d:x:p:n:s:u:")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'x':
			gid_index = atoi(optarg);
			break;
		case 'p':
			port = optarg;
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		case 's':
			p.size = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			timeout = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (!dev || !port || gid_index < 0 || !iters || !p.size ||
	    optind + 1 < argc)
		usage();
	server_addr = optind < argc ? argv[optind] : NULL;
	client = server_addr != NULL;

	setup(&p, dev);
	modify(&p, &init_attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			       IBV_QP_ACCESS_FLAGS, "INIT");
	post_recv(&p);
	if (ibv_query_gid(p.ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	srand(getpid() ^ time(NULL));
	me.qpn = htonl(p.qp->qp_num);
	me.psn = htonl(rand() & 0xffffff);
	memcpy(me.gid, gid.raw, 16);

	fd = meet(server_addr, port);
	io(fd, &me, sizeof(me), 1);
	io(fd, &remote, sizeof(remote), 0);
	remote.qpn = ntohl(remote.qpn);
	remote.psn = ntohl(remote.psn);
	connect_qp(&p, gid_index, ntohl(me.psn), &remote, timeout);
	/* Both in RTS, so no ping meets a QP that is not ready for it. */
	io(fd, &go, 1, 1);
	io(fd, &go, 1, 0);

	if (client)
		printf("#, usec\n");
	for (i = 1; i <= iters; i++) {
		if (client) {
			t0 = now_us();
			post_send(&p);
			wait_for(&p, i, i);
			post_recv(&p);
			printf("%lu, %.2f\n", i, (now_us() - t0) / 2);
		} else {
			/* No more than the send queue's depth in flight. */
			wait_for(&p, i > SQ_DEPTH ? i - SQ_DEPTH : 0, i);
			post_recv(&p);
			post_send(&p);
		}
	}
	wait_for(&p, iters, iters);
	/* The peer's last completions came before it says goodbye. */
	io(fd, &go, 1, 1);
	io(fd, &go, 1, 0);
	close(fd);
	return 0;
}
