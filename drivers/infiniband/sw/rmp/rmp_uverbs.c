// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: driver uverbs methods
 *
 * Each rmp device adds methods of its own, in the driver namespace of its
 * uverbs tree (&ib_device.driver_def), for librmpdv: one on the device,
 * which answers the version of these methods (an rxe device, with the same
 * driver id, has no such method: that tells the two apart), and three on
 * QPs: set one of the per-QP overrides, get the value an option has for a
 * QP, and read the paths of a spraying QP with their counters.
 *
 * A QP is named by its uverbs handle, which ib_core looks up in the
 * caller's own verbs file: a process reaches only the QPs it created (or
 * that its file holds), and needs no privilege for them. The lookup
 * takes the QP object shared (%UVERBS_ACCESS_READ), as posting and
 * modifying do: an exclusive lookup would fail with EBUSY while another
 * thread of the process used the QP. The overrides need no more, each
 * being written on its own (rmp_override_set()); the paths are read
 * between two runs of the QP's transport, through rmp_qp_report(), the
 * function that also fills netlink's QP_GET.
 *
 * The paths' entries grew in version 2 of these methods (byte counters):
 * the caller says how big its entries are, and an older one, which does
 * not, gets version 1's, so that both read every entry where it is.
 */
#include <rdma/rmp_user_ioctl.h>

#include "rmp_override.h"
#include "rmp_qp.h"
#include "rmp_uverbs.h"

#define UVERBS_MODULE_NAME rmp_ib
#include <rdma/uverbs_named_ioctl.h>

static int
UVERBS_HANDLER(RMP_IB_METHOD_DEV_QUERY)(struct uverbs_attr_bundle *attrs)
{
	u32 version = RMP_IB_UAPI_VERSION;

	return uverbs_copy_to(attrs, RMP_IB_ATTR_DEV_QUERY_VERSION, &version,
			      sizeof(version));
}

static int
UVERBS_HANDLER(RMP_IB_METHOD_QP_SET_OPT)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs,
						 RMP_IB_ATTR_QP_SET_OPT_HANDLE);
	u32 opt, val;
	int err;

	err = uverbs_copy_from(&opt, attrs, RMP_IB_ATTR_QP_SET_OPT_ID) ?:
	      uverbs_copy_from(&val, attrs, RMP_IB_ATTR_QP_SET_OPT_VALUE);
	return err ?: rmp_override_set(to_rmp_qp(ibqp), opt, val);
}

static int
UVERBS_HANDLER(RMP_IB_METHOD_QP_GET_OPT)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs,
						 RMP_IB_ATTR_QP_GET_OPT_HANDLE);
	struct rmp_qp *qp = to_rmp_qp(ibqp);
	u32 opt, val, own;
	bool mine;
	int err;

	err = uverbs_copy_from(&opt, attrs, RMP_IB_ATTR_QP_GET_OPT_ID);
	if (err)
		return err;
	if (opt >= RMP_IB_QP_OPT_NR)
		return -EINVAL;
	if (!rmp_qp_connected(qp))
		return -EOPNOTSUPP;
	val = rmp_override_get(qp, opt, &mine);
	own = mine;
	err = uverbs_copy_to(attrs, RMP_IB_ATTR_QP_GET_OPT_VALUE, &val,
			     sizeof(val));
	if (!err && uverbs_attr_is_valid(attrs,
					 RMP_IB_ATTR_QP_GET_OPT_OVERRIDDEN))
		err = uverbs_copy_to(attrs, RMP_IB_ATTR_QP_GET_OPT_OVERRIDDEN,
				     &own, sizeof(own));
	return err;
}

/*
 * rmp_qp_report() into an array of paths, entries @size bytes apart, room
 * for @room of them; the figures are not wanted.
 */
struct rmp_uverbs_paths {
	struct rmp_qp_sink sink;
	u8 *out;
	u32 size;
	u32 room;
	u32 n;
};

static int rmp_uverbs_no_num(struct rmp_qp_sink *s, const char *name,
			     enum rmp_fig_kind kind, u64 val)
{
	return 0;
}

static int rmp_uverbs_no_word(struct rmp_qp_sink *s, const char *name,
			      const char *word)
{
	return 0;
}

static int rmp_uverbs_path(struct rmp_qp_sink *s, u32 idx,
			   const struct rmp_path *p, bool live)
{
	struct rmp_uverbs_paths *g = container_of(s, struct rmp_uverbs_paths,
						  sink);
	const struct rmp_ib_path_stats o = {
		.sport = p->sport,
		.live = live,
		.inflight = p->inflight,
		.srtt_ns = p->rtt.srtt_ns,
		.ecn_share = p->ecn,
		.sent = p->stats.sent,
		.delivered = p->stats.delivered,
		.lost = p->stats.lost,
		.ecn_marked = p->stats.ecn,
		.deaths = p->stats.deaths,
		.revivals = p->stats.revivals,
		.replaced = p->stats.replaced,
		.sent_bytes = p->stats.sent_bytes,
		.delivered_bytes = p->stats.delivered_bytes,
	};

	/* An older caller's entries end sooner; a newer one's get zeros. */
	if (idx < g->room)
		memcpy(g->out + idx * g->size, &o, min_t(u32, g->size,
							 sizeof(o)));
	g->n = max(g->n, idx + 1);
	return 0;
}

/* The size of the caller's entries: its own, or version 1's. */
static int rmp_uverbs_stats_size(struct uverbs_attr_bundle *attrs, u32 *size)
{
	int err;

	*size = RMP_IB_PATH_STATS_SIZE_V1;
	if (!uverbs_attr_is_valid(attrs, RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE))
		return 0;
	err = uverbs_copy_from(size, attrs,
			       RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE);
	if (err)
		return err;
	if (*size < RMP_IB_PATH_STATS_SIZE_V1 ||
	    *size > RMP_IB_PATH_STATS_SIZE_MAX || *size % 8)
		return -EINVAL;
	return 0;
}

static int
UVERBS_HANDLER(RMP_IB_METHOD_QP_QUERY_PATHS)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp =
		uverbs_attr_get_obj(attrs, RMP_IB_ATTR_QP_QUERY_PATHS_HANDLE);
	struct rmp_uverbs_paths g = {
		.sink = {
			.num = rmp_uverbs_no_num,
			.word = rmp_uverbs_no_word,
			.path = rmp_uverbs_path,
		},
	};
	int len, err;

	err = rmp_uverbs_stats_size(attrs, &g.size);
	if (err)
		return err;
	/* As many as the caller has room for. */
	len = uverbs_attr_get_len(attrs, RMP_IB_ATTR_QP_QUERY_PATHS_STATS);
	if (len > 0)
		g.room = min_t(u32, len / g.size, RMP_PATHS_MAX);
	if (g.room) {
		g.out = uverbs_zalloc(attrs, g.room * g.size);
		if (IS_ERR(g.out))
			return PTR_ERR(g.out);
	}
	err = rmp_qp_report(to_rmp_qp(ibqp), &g.sink);
	if (err)
		return err;
	if (g.n && g.room) {
		err = uverbs_copy_to(attrs, RMP_IB_ATTR_QP_QUERY_PATHS_STATS,
				     g.out, min(g.n, g.room) * g.size);
		if (err)
			return err;
	}
	return uverbs_copy_to(attrs, RMP_IB_ATTR_QP_QUERY_PATHS_NUM, &g.n,
			      sizeof(g.n));
}

/* Attributes of the methods, by kind. */
#define RMP_UVERBS_QP(_id)						\
	UVERBS_ATTR_IDR(_id, UVERBS_OBJECT_QP, UVERBS_ACCESS_READ,	\
			UA_MANDATORY)
#define RMP_UVERBS_U32_IN(_id)						\
	UVERBS_ATTR_PTR_IN(_id, UVERBS_ATTR_TYPE(u32), UA_MANDATORY)
#define RMP_UVERBS_U32_OUT(_id, _presence)				\
	UVERBS_ATTR_PTR_OUT(_id, UVERBS_ATTR_TYPE(u32), _presence)

DECLARE_UVERBS_NAMED_METHOD(RMP_IB_METHOD_DEV_QUERY,
			    RMP_UVERBS_U32_OUT(RMP_IB_ATTR_DEV_QUERY_VERSION,
					       UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(RMP_IB_METHOD_QP_SET_OPT,
			    RMP_UVERBS_QP(RMP_IB_ATTR_QP_SET_OPT_HANDLE),
			    RMP_UVERBS_U32_IN(RMP_IB_ATTR_QP_SET_OPT_ID),
			    RMP_UVERBS_U32_IN(RMP_IB_ATTR_QP_SET_OPT_VALUE));

DECLARE_UVERBS_NAMED_METHOD(RMP_IB_METHOD_QP_GET_OPT,
			    RMP_UVERBS_QP(RMP_IB_ATTR_QP_GET_OPT_HANDLE),
			    RMP_UVERBS_U32_IN(RMP_IB_ATTR_QP_GET_OPT_ID),
			    RMP_UVERBS_U32_OUT(RMP_IB_ATTR_QP_GET_OPT_VALUE,
					       UA_MANDATORY),
			    RMP_UVERBS_U32_OUT(RMP_IB_ATTR_QP_GET_OPT_OVERRIDDEN,
					       UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD(RMP_IB_METHOD_QP_QUERY_PATHS,
			    RMP_UVERBS_QP(RMP_IB_ATTR_QP_QUERY_PATHS_HANDLE),
			    UVERBS_ATTR_PTR_OUT(RMP_IB_ATTR_QP_QUERY_PATHS_STATS,
						UVERBS_ATTR_MIN_SIZE(0),
						UA_OPTIONAL),
			    RMP_UVERBS_U32_OUT(RMP_IB_ATTR_QP_QUERY_PATHS_NUM,
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE,
					       UVERBS_ATTR_TYPE(u32),
					       UA_OPTIONAL));

ADD_UVERBS_METHODS(rmp_ib_device, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(RMP_IB_METHOD_DEV_QUERY));

ADD_UVERBS_METHODS(rmp_ib_qp, UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(RMP_IB_METHOD_QP_SET_OPT),
		   &UVERBS_METHOD(RMP_IB_METHOD_QP_GET_OPT),
		   &UVERBS_METHOD(RMP_IB_METHOD_QP_QUERY_PATHS));

/* The methods every rmp device adds to its uverbs tree. */
const struct uapi_definition rmp_uverbs_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &rmp_ib_device),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &rmp_ib_qp),
	{},
};
