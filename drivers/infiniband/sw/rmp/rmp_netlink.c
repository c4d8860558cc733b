// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: netlink
 *
 * The generic netlink family ``rmp`` (include/uapi/rdma/rmp_netlink.h,
 * described in Documentation/netlink/specs/rmp.yaml) is what ``rmpctl``
 * speaks. DEV_GET shows a device: its netdev, every knob of the knob table
 * with its unit or word, and every counter; DEV_SET sets one knob from a
 * string, through the same parser as the knob's sysfs file, and on a bad
 * value answers with an extended ACK message naming the knob and what it
 * takes; QP_GET shows QPs with the figures ``rdma resource show qp -dd``
 * shows (rmp_qp_report()) and, for a spraying QP, each path; QP_SET
 * gives a QP its own value of one of the knobs a QP can override
 * (rmp_override_set()), parsed as DEV_SET parses it, or ``default``.
 *
 * The family is per network namespace: a request sees only the devices
 * whose netdev is in the namespace of its socket, and DEV_SET and QP_SET
 * need CAP_NET_ADMIN over that namespace. Each request or each part of a dump
 * holds a reference to one device at a time (rmp_dev_get()), and one to
 * each QP while it reports it, so devices and QPs may go away at any
 * point between two parts of a dump: the dump then goes on from the next
 * index or QP number.
 */
#include <net/genetlink.h>
#include <rdma/rmp_netlink.h>

#include "rmp_dev.h"
#include "rmp_knob.h"
#include "rmp_netlink.h"
#include "rmp_override.h"
#include "rmp_qp.h"
#include "rmp_stats.h"

static struct genl_family rmp_nl_family;

/* What DEV_SET says of a bad value, per knob: its name and what it takes. */
static char rmp_nl_knob_msgs[RMP_KNOB_NR][96];
/* What QP_SET says, per option: the same, and "default". */
static char rmp_nl_opt_msgs[RMP_IB_QP_OPT_NR][112];

/* Room a DEV_GET reply needs, and one path in a QP_GET reply. */
static size_t rmp_nl_dev_size;
static size_t rmp_nl_path_size;

static struct netlink_range_validation rmp_nl_index_range = {
	.max = S32_MAX,
};

static struct netlink_range_validation rmp_nl_qpn_range = {
	.max = 0xffffff,
};

#define RMP_NL_DEV_POLICY						\
	[RMP_A_DEV_INDEX] = NLA_POLICY_FULL_RANGE(NLA_U32,		\
						  &rmp_nl_index_range),	\
	[RMP_A_DEV_NAME] = { .type = NLA_NUL_STRING,			\
			     .len = IB_DEVICE_NAME_MAX - 1 }

static const struct nla_policy rmp_nl_dev_get_policy[RMP_A_MAX + 1] = {
	RMP_NL_DEV_POLICY,
};

static const struct nla_policy rmp_nl_dev_set_policy[RMP_A_MAX + 1] = {
	RMP_NL_DEV_POLICY,
	[RMP_A_KNOB_NAME] = { .type = NLA_NUL_STRING,
			      .len = RMP_KNOB_NAME_MAX - 1 },
	[RMP_A_KNOB_VALUE] = { .type = NLA_NUL_STRING,
			       .len = RMP_KNOB_VALUE_MAX - 1 },
};

static const struct nla_policy rmp_nl_qp_get_policy[RMP_A_MAX + 1] = {
	RMP_NL_DEV_POLICY,
	[RMP_A_QPN] = NLA_POLICY_FULL_RANGE(NLA_U32, &rmp_nl_qpn_range),
};

static const struct nla_policy rmp_nl_qp_set_policy[RMP_A_MAX + 1] = {
	RMP_NL_DEV_POLICY,
	[RMP_A_QPN] = NLA_POLICY_FULL_RANGE(NLA_U32, &rmp_nl_qpn_range),
	[RMP_A_KNOB_NAME] = { .type = NLA_NUL_STRING,
			      .len = RMP_KNOB_NAME_MAX - 1 },
	[RMP_A_KNOB_VALUE] = { .type = NLA_NUL_STRING,
			       .len = RMP_KNOB_VALUE_MAX - 1 },
};

/* The device a request names, referenced; NULL if it names none. */
static struct rmp_dev *rmp_nl_dev_named(struct net *net, struct nlattr **attrs)
{
	struct rmp_dev *dev;
	u32 index;

	if (attrs[RMP_A_DEV_NAME])
		return rmp_dev_get(net, nla_data(attrs[RMP_A_DEV_NAME]), 0);
	index = nla_get_u32(attrs[RMP_A_DEV_INDEX]);
	dev = rmp_dev_get(net, NULL, index);
	if (dev && dev->ib_dev.index != index) {
		ib_device_put(&dev->ib_dev);
		dev = NULL;
	}
	return dev;
}

/* The device a doit request names, referenced, or an error said why. */
static struct rmp_dev *rmp_nl_dev(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[RMP_A_DEV_NAME] ?:
			      info->attrs[RMP_A_DEV_INDEX];
	struct rmp_dev *dev;

	if (!attr) {
		NL_SET_ERR_MSG(info->extack, "no device named");
		return ERR_PTR(-EINVAL);
	}
	dev = rmp_nl_dev_named(genl_info_net(info), info->attrs);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no rmp device of that name in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

static int rmp_nl_put_dev(struct sk_buff *msg, struct rmp_dev *dev)
{
	return nla_put_u32(msg, RMP_A_DEV_INDEX, dev->ib_dev.index) ?:
	       nla_put_string(msg, RMP_A_DEV_NAME, dev_name(&dev->ib_dev.dev));
}

static int rmp_nl_put_knob(struct sk_buff *msg, struct rmp_dev *dev,
			   enum rmp_knob_id id)
{
	const struct rmp_knob *k = &rmp_knobs[id];
	u32 val = rmp_knob_get(dev, id);
	struct nlattr *nest;

	nest = nla_nest_start(msg, RMP_A_KNOB);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(msg, RMP_KNOB_A_NAME, k->name) ||
	    nla_put_u32(msg, RMP_KNOB_A_VALUE, val) ||
	    (k->words ? nla_put_string(msg, RMP_KNOB_A_WORD, k->words[val]) :
			nla_put_string(msg, RMP_KNOB_A_UNIT, k->unit))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int rmp_nl_put_counters(struct sk_buff *msg, struct rmp_dev *dev)
{
	struct nlattr *nest;
	u64 *val;
	int i, err = 0;

	val = kcalloc(RMP_CNT_MAX, sizeof(*val), GFP_KERNEL);
	if (!val)
		return -ENOMEM;
	rmp_stats_read(&dev->stats, val);
	for (i = 0; !err && i < RMP_CNT_MAX; i++) {
		nest = nla_nest_start(msg, RMP_A_COUNTER);
		if (!nest ||
		    nla_put_string(msg, RMP_COUNTER_A_NAME, rmp_stats_name(i)) ||
		    nla_put_u64_64bit(msg, RMP_COUNTER_A_VALUE, val[i],
				      RMP_COUNTER_A_PAD))
			err = -EMSGSIZE;
		else
			nla_nest_end(msg, nest);
	}
	kfree(val);
	return err;
}

/* A DEV_GET reply: the device, its netdev, its knobs, its counters. */
static int rmp_nl_fill_dev(struct sk_buff *msg, struct rmp_dev *dev,
			   u32 portid, u32 seq, int flags)
{
	void *hdr;
	int i, err;

	hdr = genlmsg_put(msg, portid, seq, &rmp_nl_family, flags,
			  RMP_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	err = rmp_nl_put_dev(msg, dev) ?:
	      nla_put_string(msg, RMP_A_NETDEV, netdev_name(dev->ndev)) ?:
	      nla_put_u32(msg, RMP_A_IFINDEX, dev->ndev->ifindex);
	for (i = 0; !err && i < RMP_KNOB_NR; i++)
		err = rmp_nl_put_knob(msg, dev, i);
	err = err ?: rmp_nl_put_counters(msg, dev);
	if (err) {
		genlmsg_cancel(msg, hdr);
		return err;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int rmp_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rmp_dev *dev = rmp_nl_dev(info);
	struct sk_buff *msg;
	int err;

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	msg = genlmsg_new(rmp_nl_dev_size, GFP_KERNEL);
	err = msg ? rmp_nl_fill_dev(msg, dev, info->snd_portid,
				    info->snd_seq, 0) : -ENOMEM;
	ib_device_put(&dev->ib_dev);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int rmp_nl_dev_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = rmp_nl_dev_size;
	return 0;
}

/* cb->args[0]: the index of the next device to show. */
static int rmp_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct rmp_dev *dev;
	u32 index;
	int err;

	while ((dev = rmp_dev_get(net, NULL, cb->args[0]))) {
		index = dev->ib_dev.index;
		err = rmp_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		ib_device_put(&dev->ib_dev);
		if (err)
			return skb->len ?: err;
		cb->args[0] = (u64)index + 1;
	}
	return skb->len;
}

/*
 * The device a setting request names, referenced, once the request is
 * checked: it carries a knob and a value, and its sender may set.
 */
static struct rmp_dev *rmp_nl_dev_to_set(struct sk_buff *skb,
					 struct genl_info *info)
{
	struct rmp_dev *dev;

	if (GENL_REQ_ATTR_CHECK(info, RMP_A_KNOB_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, RMP_A_KNOB_VALUE))
		return ERR_PTR(-EINVAL);
	dev = rmp_nl_dev(info);
	if (IS_ERR(dev))
		return dev;
	if (!netlink_ns_capable(skb, dev->net->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "setting a knob needs CAP_NET_ADMIN in the device's network namespace");
		ib_device_put(&dev->ib_dev);
		return ERR_PTR(-EPERM);
	}
	return dev;
}

/* The knob a setting request names, or an error said why. */
static int rmp_nl_knob(struct genl_info *info)
{
	int id = rmp_knob_lookup(nla_data(info->attrs[RMP_A_KNOB_NAME]));

	if (id < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RMP_A_KNOB_NAME],
				    "no knob of that name");
		return -EINVAL;
	}
	return id;
}

/* A bad value: the message says what the knob takes. */
static void rmp_nl_bad_value(struct genl_info *info, const char *msg)
{
	/* NL_SET_ERR_MSG() takes literals; @msg lives as long. */
	info->extack->_msg = msg;
	NL_SET_BAD_ATTR(info->extack, info->attrs[RMP_A_KNOB_VALUE]);
}

static int rmp_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rmp_dev *dev = rmp_nl_dev_to_set(skb, info);
	int id, err;
	u32 val;

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	id = rmp_nl_knob(info);
	if (id < 0) {
		err = id;
		goto out;
	}
	err = rmp_knob_parse(id, nla_data(info->attrs[RMP_A_KNOB_VALUE]),
			     &val) ?: rmp_knob_set(dev, id, val);
	if (err)
		rmp_nl_bad_value(info, rmp_nl_knob_msgs[id]);
out:
	ib_device_put(&dev->ib_dev);
	return err;
}

/* Set one override of @qp, or say why not. */
static int rmp_nl_qp_set_opt(struct genl_info *info, struct rmp_qp *qp)
{
	int id, opt, err;
	u32 val;

	id = rmp_nl_knob(info);
	if (id < 0)
		return id;
	opt = rmp_override_opt(id);
	if (opt < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RMP_A_KNOB_NAME],
				    "a QP overrides only paths, spray, cc and rcc_unsched");
		return -EINVAL;
	}
	err = rmp_override_parse(id, nla_data(info->attrs[RMP_A_KNOB_VALUE]),
				 &val) ?: rmp_override_set(qp, opt, val);
	if (err == -EINVAL)
		rmp_nl_bad_value(info, rmp_nl_opt_msgs[opt]);
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RMP_A_QPN],
				    "only RC and UC QPs take overrides");
	return err;
}

static int rmp_nl_qp_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rmp_dev *dev;
	struct rmp_qp *qp;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, RMP_A_QPN))
		return -EINVAL;
	dev = rmp_nl_dev_to_set(skb, info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	qp = rmp_qp_get(dev, nla_get_u32(info->attrs[RMP_A_QPN]));
	if (qp) {
		err = rmp_nl_qp_set_opt(info, qp);
		rmp_qp_put(qp);
	} else {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RMP_A_QPN],
				    "no QP of that number on the device");
		err = -ENOENT;
	}
	ib_device_put(&dev->ib_dev);
	return err;
}

/*
 * rmp_qp_report() into the nests of a QP_GET reply. A figure: its name,
 * then a number or a word.
 */
static int rmp_nl_figure(struct rmp_qp_sink *s, const char *name,
			 bool hex, u64 val, const char *word)
{
	struct sk_buff *msg = s->msg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, RMP_A_QP_FIGURE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(msg, RMP_FIGURE_A_NAME, name) ||
	    (word ? nla_put_string(msg, RMP_FIGURE_A_WORD, word) :
		    nla_put_u64_64bit(msg, RMP_FIGURE_A_VALUE, val,
				      RMP_FIGURE_A_PAD)) ||
	    (hex && nla_put_flag(msg, RMP_FIGURE_A_HEX))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int rmp_nl_sink_num(struct rmp_qp_sink *s, const char *name,
			   enum rmp_fig_kind kind, u64 val)
{
	return rmp_nl_figure(s, name, kind == RMP_FIG_HEX, val, NULL);
}

static int rmp_nl_sink_word(struct rmp_qp_sink *s, const char *name,
			    const char *word)
{
	return rmp_nl_figure(s, name, false, 0, word);
}

static int rmp_nl_sink_path(struct rmp_qp_sink *s, u32 idx,
			    const struct rmp_path *p, bool live)
{
	const struct rmp_path_stats *st = &p->stats;
	struct sk_buff *msg = s->msg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, RMP_A_QP_PATH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RMP_PATH_A_INDEX, idx) ||
	    nla_put_u16(msg, RMP_PATH_A_SPORT, p->sport) ||
	    nla_put_u8(msg, RMP_PATH_A_LIVE, live) ||
	    nla_put_u32(msg, RMP_PATH_A_INFLIGHT, p->inflight) ||
	    nla_put_u32(msg, RMP_PATH_A_SRTT_NS, p->rtt.srtt_ns) ||
	    nla_put_u32(msg, RMP_PATH_A_ECN_SHARE, p->ecn) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_SENT, st->sent,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_DELIVERED, st->delivered,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_LOST, st->lost,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_ECN_MARKED, st->ecn,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_DEATHS, st->deaths,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_REVIVALS, st->revivals,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_REPLACED, st->replaced,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_SENT_BYTES, st->sent_bytes,
			      RMP_PATH_A_PAD) ||
	    nla_put_u64_64bit(msg, RMP_PATH_A_DELIVERED_BYTES,
			      st->delivered_bytes, RMP_PATH_A_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static const char *rmp_nl_qp_type(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_GSI:
		return "GSI";
	case IB_QPT_RC:
		return "RC";
	case IB_QPT_UC:
		return "UC";
	case IB_QPT_UD:
		return "UD";
	default:
		return "other";
	}
}

static const char *const rmp_nl_qp_states[] = {
	[IB_QPS_RESET] = "RESET",
	[IB_QPS_INIT] = "INIT",
	[IB_QPS_RTR] = "RTR",
	[IB_QPS_RTS] = "RTS",
	[IB_QPS_SQD] = "SQD",
	[IB_QPS_SQE] = "SQE",
	[IB_QPS_ERR] = "ERR",
};

/* A QP_GET reply: the device, the QP, its figures and its paths. */
static int rmp_nl_fill_qp(struct sk_buff *msg, struct rmp_dev *dev,
			  struct rmp_qp *qp, u32 portid, u32 seq, int flags)
{
	struct rmp_qp_sink sink = {
		.num = rmp_nl_sink_num,
		.word = rmp_nl_sink_word,
		.path = rmp_nl_sink_path,
		.msg = msg,
	};
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	void *hdr;
	int err;

	rmp_query_qp(&qp->ibqp, &attr, IB_QP_STATE | IB_QP_DEST_QPN, &init);
	hdr = genlmsg_put(msg, portid, seq, &rmp_nl_family, flags,
			  RMP_CMD_QP_GET);
	if (!hdr)
		return -EMSGSIZE;
	err = rmp_nl_put_dev(msg, dev) ?:
	      nla_put_u32(msg, RMP_A_QPN, qp->ibqp.qp_num) ?:
	      nla_put_string(msg, RMP_A_QP_TYPE,
			     rmp_nl_qp_type(qp->ibqp.qp_type)) ?:
	      nla_put_string(msg, RMP_A_QP_STATE,
			     rmp_nl_qp_states[attr.qp_state]);
	if (!err && rmp_qp_connected(qp) && attr.qp_state >= IB_QPS_RTR)
		err = nla_put_u32(msg, RMP_A_QP_PEER_QPN, attr.dest_qp_num);
	err = err ?: rmp_qp_report(qp, &sink);
	if (err) {
		genlmsg_cancel(msg, hdr);
		return err;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/* Room for one QP_GET reply: its paths, and a page for the rest. */
static size_t rmp_nl_qp_size(void)
{
	return NLMSG_GOODSIZE + RMP_PATHS_MAX * rmp_nl_path_size;
}

static int rmp_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct rmp_dev *dev;
	struct rmp_qp *qp;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, RMP_A_QPN))
		return -EINVAL;
	dev = rmp_nl_dev(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	qp = rmp_qp_get(dev, nla_get_u32(info->attrs[RMP_A_QPN]));
	if (!qp) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RMP_A_QPN],
				    "no QP of that number on the device");
		err = -ENOENT;
		goto out;
	}
	msg = genlmsg_new(rmp_nl_qp_size(), GFP_KERNEL);
	err = msg ? rmp_nl_fill_qp(msg, dev, qp, info->snd_portid,
				   info->snd_seq, 0) : -ENOMEM;
	rmp_qp_put(qp);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	ib_device_put(&dev->ib_dev);
	return genlmsg_reply(msg, info);
out:
	ib_device_put(&dev->ib_dev);
	return err;
}

static int rmp_nl_qp_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = rmp_nl_qp_size();
	return 0;
}

/*
 * The device a QP dump names, on its first part (extended ACKs reach a
 * dump's parts, not its start): cb->args[0] its index, cb->args[2] 1.
 */
static int rmp_nl_qp_dump_named(struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct rmp_dev *dev;

	if (!attrs[RMP_A_DEV_NAME] && !attrs[RMP_A_DEV_INDEX])
		return 0;
	dev = rmp_nl_dev_named(sock_net(cb->skb->sk), attrs);
	if (!dev) {
		NL_SET_ERR_MSG(cb->extack,
			       "no rmp device of that name in this network namespace");
		return -ENODEV;
	}
	cb->args[0] = dev->ib_dev.index;
	cb->args[2] = 1;
	ib_device_put(&dev->ib_dev);
	return 0;
}

/* The QPs of one device from cb->args[1] on; 0 once all are in. */
static int rmp_nl_qp_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			      struct rmp_dev *dev)
{
	u32 qpn = cb->args[1];
	struct rmp_qp *qp;
	int err;

	while ((qp = rmp_qp_get_next(dev, &qpn))) {
		err = rmp_nl_fill_qp(skb, dev, qp, NETLINK_CB(cb->skb).portid,
				     cb->nlh->nlmsg_seq, NLM_F_MULTI);
		rmp_qp_put(qp);
		if (err)
			return err;
		cb->args[1] = ++qpn;
	}
	return 0;
}

static int rmp_nl_qp_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct rmp_dev *dev;
	int err;

	/*
	 * The cursor: cb->args[0] the index of the device, cb->args[1] the
	 * number of the QP to show next; cb->args[2] 1 if the request named
	 * the one device to show; cb->args[3] 1 once started.
	 */
	if (!cb->args[3]) {
		err = rmp_nl_qp_dump_named(cb);
		if (err)
			return err;
		cb->args[3] = 1;
	}
	while ((dev = rmp_dev_get(net, NULL, cb->args[0]))) {
		if (cb->args[2] && dev->ib_dev.index != cb->args[0]) {
			ib_device_put(&dev->ib_dev);
			break;
		}
		if (dev->ib_dev.index != cb->args[0]) {
			cb->args[0] = dev->ib_dev.index;
			cb->args[1] = 0;
		}
		err = rmp_nl_qp_dump_dev(skb, cb, dev);
		ib_device_put(&dev->ib_dev);
		if (err)
			return skb->len ?: err;
		if (cb->args[2])
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}
	return skb->len;
}

static const struct genl_ops rmp_nl_ops[] = {
	{
		.cmd = RMP_CMD_DEV_GET,
		.doit = rmp_nl_dev_get_doit,
		.start = rmp_nl_dev_get_start,
		.dumpit = rmp_nl_dev_get_dumpit,
		.policy = rmp_nl_dev_get_policy,
		.maxattr = RMP_A_MAX,
	},
	{
		.cmd = RMP_CMD_DEV_SET,
		.doit = rmp_nl_dev_set_doit,
		.policy = rmp_nl_dev_set_policy,
		.maxattr = RMP_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = RMP_CMD_QP_GET,
		.doit = rmp_nl_qp_get_doit,
		.start = rmp_nl_qp_get_start,
		.dumpit = rmp_nl_qp_get_dumpit,
		.policy = rmp_nl_qp_get_policy,
		.maxattr = RMP_A_MAX,
	},
	{
		.cmd = RMP_CMD_QP_SET,
		.doit = rmp_nl_qp_set_doit,
		.policy = rmp_nl_qp_set_policy,
		.maxattr = RMP_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family rmp_nl_family __ro_after_init = {
	.name = RMP_GENL_NAME,
	.version = RMP_GENL_VERSION,
	.maxattr = RMP_A_MAX,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = rmp_nl_ops,
	.n_ops = ARRAY_SIZE(rmp_nl_ops),
};

/* The room replies take, from the knob and counter tables. */
static void rmp_nl_sizes(void)
{
	const struct rmp_knob *k;
	const char *const *w;
	size_t size, longest;
	int i;

	size = nla_total_size(sizeof(u32)) +
	       nla_total_size(IB_DEVICE_NAME_MAX) +
	       nla_total_size(IFNAMSIZ) + nla_total_size(sizeof(u32));
	for (i = 0; i < RMP_KNOB_NR; i++) {
		k = &rmp_knobs[i];
		longest = k->unit ? strlen(k->unit) : 0;
		for (w = k->words; w && *w; w++)
			longest = max(longest, strlen(*w));
		size += nla_total_size(0) +
			nla_total_size(strlen(k->name) + 1) +
			nla_total_size(sizeof(u32)) +
			nla_total_size(longest + 1);
	}
	for (i = 0; i < RMP_CNT_MAX; i++)
		size += nla_total_size(0) +
			nla_total_size(strlen(rmp_stats_name(i)) + 1) +
			nla_total_size_64bit(sizeof(u64));
	rmp_nl_dev_size = size;
	/* Index, port, live, in flight, RTT, ECN share; nine counters. */
	rmp_nl_path_size = nla_total_size(0) +
			   6 * nla_total_size(sizeof(u32)) +
			   9 * nla_total_size_64bit(sizeof(u64));
}

/**
 * rmp_netlink_register() - make the ``rmp`` family available
 *
 * Called once, when the module loads.
 *
 * Return: 0 or a negative errno.
 */
int rmp_netlink_register(void)
{
	int i, n;

	for (i = 0; i < RMP_KNOB_NR; i++) {
		n = scnprintf(rmp_nl_knob_msgs[i], sizeof(rmp_nl_knob_msgs[i]),
			      "%s takes ", rmp_knobs[i].name);
		rmp_knob_describe(i, rmp_nl_knob_msgs[i] + n,
				  sizeof(rmp_nl_knob_msgs[i]) - n);
	}
	for (i = 0; i < RMP_IB_QP_OPT_NR; i++)
		scnprintf(rmp_nl_opt_msgs[i], sizeof(rmp_nl_opt_msgs[i]),
			  "%s, or default",
			  rmp_nl_knob_msgs[rmp_override_knob(i)]);
	rmp_nl_sizes();
	return genl_register_family(&rmp_nl_family);
}

/**
 * rmp_netlink_unregister() - withdraw the ``rmp`` family
 *
 * Waits for the requests and dumps in progress.
 */
void rmp_netlink_unregister(void)
{
	genl_unregister_family(&rmp_nl_family);
}
