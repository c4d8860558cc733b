// SPDX-License-Identifier: GPL-2.0
/*
 * Requests to the "rmp" family and their replies: the family's id from
 * the generic netlink controller, then one request at a time, its replies
 * handed to a callback until the kernel's ACK or the end of a dump. A
 * failed request leaves errno set and the kernel's extended ACK message,
 * if it sent one, in rmpnl.errmsg.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <rdma/rmp_netlink.h>

#include "nl.h"

/* Replies of one QP with 64 paths take about 14 KiB. */
#define RMPNL_BUF_SIZE	65536

static struct nlmsghdr *rmpnl_put(struct rmpnl *nl, uint16_t type,
				  uint16_t flags, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* The extended ACK's message, from the attributes at @off of @nlh. */
static void rmpnl_ext_ack(struct rmpnl *nl, const struct nlmsghdr *nlh,
			  size_t off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
				 mnl_attr_get_str(a));
	}
}

/*
 * One message of the answer. Return: 1 if more are to come, 0 at the
 * end, -1 with errno set on an error.
 */
static int rmpnl_one(struct rmpnl *nl, const struct nlmsghdr *nlh,
		     rmpnl_cb cb, void *data)
{
	const struct nlmsgerr *e;
	size_t off;
	int err;

	switch (nlh->nlmsg_type) {
	case NLMSG_NOOP:
		return 1;
	case NLMSG_ERROR:
		if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
			errno = EBADMSG;
			return -1;
		}
		e = mnl_nlmsg_get_payload(nlh);
		if (!e->error)
			return 0;
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
		rmpnl_ext_ack(nl, nlh, off);
		errno = -e->error;
		return -1;
	case NLMSG_DONE:
		if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(int)))
			return 0;
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
		if (!err)
			return 0;
		rmpnl_ext_ack(nl, nlh, sizeof(int));
		errno = -err;
		return -1;
	default:
		if (cb && cb(nlh, data) != MNL_CB_OK)
			return -1;
		return 1;
	}
}

/**
 * rmpnl_talk() - send a request, take in its answer
 * @nl: the connection
 * @nlh: the request, from rmpnl_request()
 * @cb: called for each reply message, or NULL
 * @data: for @cb
 *
 * Return: 0, or -1 with errno set (and @nl->errmsg, if the kernel said).
 */
int rmpnl_talk(struct rmpnl *nl, struct nlmsghdr *nlh, rmpnl_cb cb,
	       void *data)
{
	uint32_t portid = mnl_socket_get_portid(nl->sk);
	uint32_t seq = nlh->nlmsg_seq;
	const struct nlmsghdr *m;
	int len, more = 1;

	nl->errmsg[0] = '\0';
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -1;
	while (more > 0) {
		len = mnl_socket_recvfrom(nl->sk, nl->buf, RMPNL_BUF_SIZE);
		if (len < 0)
			return -1;
		for (m = (const struct nlmsghdr *)nl->buf;
		     more > 0 && mnl_nlmsg_ok(m, len);
		     m = mnl_nlmsg_next(m, &len)) {
			if (!mnl_nlmsg_portid_ok(m, portid) ||
			    !mnl_nlmsg_seq_ok(m, seq))
				continue;
			more = rmpnl_one(nl, m, cb, data);
		}
	}
	return more;
}

static int rmpnl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	}
	return MNL_CB_OK;
}

/**
 * rmpnl_open() - connect to the "rmp" family
 * @nl: filled in
 *
 * Return: 0, or -1 with errno set (ENOENT: the module is not loaded).
 */
int rmpnl_open(struct rmpnl *nl)
{
	struct nlmsghdr *nlh;
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->buf = malloc(RMPNL_BUF_SIZE);
	if (!nl->buf)
		return -1;
	nl->seq = time(NULL);
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk)
		return -1;
	/* Error messages, and errors without the request echoed. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -1;
	nlh = rmpnl_put(nl, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, RMP_GENL_NAME);
	if (rmpnl_talk(nl, nlh, rmpnl_family_cb, &nl->family) < 0)
		return -1;
	if (!nl->family) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/**
 * rmpnl_close() - let go of the connection
 * @nl: from rmpnl_open(), which may have failed
 */
void rmpnl_close(struct rmpnl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->buf);
	nl->sk = NULL;
	nl->buf = NULL;
}

/**
 * rmpnl_request() - start a request to the family
 * @nl: the connection
 * @cmd: RMP_CMD_*
 * @flags: NLM_F_DUMP for a dump; an ACK is always asked for
 *
 * Return: the message, in @nl's buffer, to add attributes to.
 */
struct nlmsghdr *rmpnl_request(struct rmpnl *nl, uint8_t cmd, uint16_t flags)
{
	return rmpnl_put(nl, nl->family, NLM_F_ACK | flags, cmd,
			 RMP_GENL_VERSION);
}

/**
 * rmpnl_error() - what went wrong with the last request
 * @nl: the connection
 * @err: its errno
 *
 * Return: the kernel's message if it sent one, else strerror(@err).
 */
const char *rmpnl_error(const struct rmpnl *nl, int err)
{
	return nl->errmsg[0] ? nl->errmsg : strerror(err);
}
