// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * librmpdv: rmp's driver-specific uverbs methods
 * (include/uapi/rdma/rmp_user_ioctl.h), called with RDMA_VERBS_IOCTL on
 * the verbs command file of a context, with public headers only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rmp_user_ioctl.h>

#include "rmpdv.h"

#define RMPDV_MAX_ATTRS 4

_Static_assert((int)RMPDV_QP_OPT_PATHS == RMP_IB_QP_OPT_PATHS &&
	       (int)RMPDV_QP_OPT_SPRAY == RMP_IB_QP_OPT_SPRAY &&
	       (int)RMPDV_QP_OPT_CC == RMP_IB_QP_OPT_CC &&
	       (int)RMPDV_QP_OPT_UNSCHED == RMP_IB_QP_OPT_RCC_UNSCHED,
	       "options as the kernel numbers them");
_Static_assert(RMPDV_VALUE_DEFAULT == RMP_IB_QP_OPT_DEFAULT,
	       "the default value as the kernel spells it");

/* A request: the header and its attributes, as the ioctl takes them. */
struct rmpdv_req {
	union {
		struct ib_uverbs_ioctl_hdr hdr;
		unsigned char room[sizeof(struct ib_uverbs_ioctl_hdr) +
				   RMPDV_MAX_ATTRS *
				   sizeof(struct ib_uverbs_attr)];
	};
	struct ib_uverbs_attr *attr;
};

static void req_init(struct rmpdv_req *r, uint16_t object, uint16_t method)
{
	memset(r, 0, sizeof(*r));
	r->hdr.object_id = object;
	r->hdr.method_id = method;
	/* rmp devices take the Soft-RoCE driver id. */
	r->hdr.driver_id = RDMA_DRIVER_RXE;
	r->attr = (struct ib_uverbs_attr *)(r->room + sizeof(r->hdr));
}

static struct ib_uverbs_attr *req_attr(struct rmpdv_req *r, uint16_t id,
				       uint16_t flags)
{
	struct ib_uverbs_attr *a = &r->attr[r->hdr.num_attrs++];

	a->attr_id = id;
	a->flags = flags;
	return a;
}

/* An object handle. */
static void req_handle(struct rmpdv_req *r, uint16_t id, uint32_t handle)
{
	req_attr(r, id, UVERBS_ATTR_F_MANDATORY)->data = handle;
}

/* A u32 in: up to 8 bytes travel in the attribute itself. */
static void req_u32_in(struct rmpdv_req *r, uint16_t id, uint32_t val)
{
	struct ib_uverbs_attr *a = req_attr(r, id, UVERBS_ATTR_F_MANDATORY);

	a->len = sizeof(val);
	memcpy(&a->data, &val, sizeof(val));
}

static void req_out(struct rmpdv_req *r, uint16_t id, void *buf, size_t len,
		    uint16_t flags)
{
	struct ib_uverbs_attr *a = req_attr(r, id, flags);

	a->len = len;
	a->data = (uintptr_t)buf;
}

/* Send @r on @ctx's command file. Return: 0 or an errno value. */
static int req_send(struct ibv_context *ctx, struct rmpdv_req *r)
{
	r->hdr.length = sizeof(r->hdr) +
			r->hdr.num_attrs * sizeof(struct ib_uverbs_attr);
	if (ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &r->hdr))
		return errno;
	return 0;
}

/**
 * rmpdv_is_rmp_device() - whether a context's device is an rmp device
 * @ctx: an open device context
 *
 * Calls rmp's device method on the context's command file: only rmp has
 * it (rxe answers EPROTONOSUPPORT, another driver EINVAL). errno may be
 * changed either way.
 *
 * Return: true if the method answered a version of 1 or more, else false.
 */
bool rmpdv_is_rmp_device(struct ibv_context *ctx)
{
	struct rmpdv_req r;
	uint32_t version = 0;
	int err;

	req_init(&r, UVERBS_OBJECT_DEVICE, RMP_IB_METHOD_DEV_QUERY);
	req_out(&r, RMP_IB_ATTR_DEV_QUERY_VERSION, &version, sizeof(version),
		UVERBS_ATTR_F_MANDATORY);
	err = req_send(ctx, &r);
	/* Only rmp has the method: rxe says EPROTONOSUPPORT, others EINVAL. */
	return !err && version >= 1;
}

/*
 * An error of a QP method: a device without the methods is EOPNOTSUPP
 * (its kernel says EPROTONOSUPPORT, or EINVAL for another driver id).
 */
static int qp_error(struct ibv_qp *qp, int err)
{
	if (err == EPROTONOSUPPORT ||
	    (err == EINVAL && !rmpdv_is_rmp_device(qp->context)))
		err = EOPNOTSUPP;
	errno = err;
	return err;
}

/**
 * rmpdv_qp_set() - give a QP its own value of an option
 * @qp: an RC or UC QP of this process
 * @opt: which option
 * @value: the value, as the device knob of the same name takes it, or
 *	%RMPDV_VALUE_DEFAULT to follow the device's knob again
 *
 * Return: 0, or an errno value, stored in errno too: EINVAL for an
 * unknown @opt or a value it does not take (the QP's value is then
 * unchanged), EOPNOTSUPP if the device is not an rmp device or @qp is
 * neither RC nor UC, ENOENT if the kernel knows no such QP of this
 * process, or what else the kernel answered.
 */
int rmpdv_qp_set(struct ibv_qp *qp, enum rmpdv_qp_opt opt, uint32_t value)
{
	struct rmpdv_req r;

	req_init(&r, UVERBS_OBJECT_QP, RMP_IB_METHOD_QP_SET_OPT);
	req_handle(&r, RMP_IB_ATTR_QP_SET_OPT_HANDLE, qp->handle);
	req_u32_in(&r, RMP_IB_ATTR_QP_SET_OPT_ID, opt);
	req_u32_in(&r, RMP_IB_ATTR_QP_SET_OPT_VALUE, value);
	return qp_error(qp, req_send(qp->context, &r));
}

/**
 * rmpdv_qp_get() - the value an option has for a QP
 * @qp: an RC or UC QP of this process
 * @opt: which option
 * @value: set to the QP's own value, or else its device knob's current one
 * @own: if not NULL, set to whether @value is the QP's own
 *
 * @value and @own are written only on success.
 *
 * Return: 0, or an errno value, stored in errno too, as for rmpdv_qp_set().
 */
int rmpdv_qp_get(struct ibv_qp *qp, enum rmpdv_qp_opt opt, uint32_t *value,
		 bool *own)
{
	uint32_t val = 0, mine = 0;
	struct rmpdv_req r;
	int err;

	req_init(&r, UVERBS_OBJECT_QP, RMP_IB_METHOD_QP_GET_OPT);
	req_handle(&r, RMP_IB_ATTR_QP_GET_OPT_HANDLE, qp->handle);
	req_u32_in(&r, RMP_IB_ATTR_QP_GET_OPT_ID, opt);
	req_out(&r, RMP_IB_ATTR_QP_GET_OPT_VALUE, &val, sizeof(val),
		UVERBS_ATTR_F_MANDATORY);
	req_out(&r, RMP_IB_ATTR_QP_GET_OPT_OVERRIDDEN, &mine, sizeof(mine), 0);
	err = req_send(qp->context, &r);
	if (err)
		return qp_error(qp, err);
	*value = val;
	if (own)
		*own = mine;
	return 0;
}

/*
 * Ask the kernel for @qp's paths, up to @max entries into @k, @stride bytes
 * each: its own struct's size (@stride is that size) as version 2 takes it,
 * or, from a version 1 kernel (it refuses the size, a mandatory attribute,
 * with EPROTONOSUPPORT), version 1's entries (@stride becomes their size).
 */
static int query_paths(struct ibv_qp *qp, void *k, size_t max,
		       size_t *stride, uint32_t *num)
{
	struct rmpdv_req r;
	bool sized = true;
	int err;

	do {
		req_init(&r, UVERBS_OBJECT_QP, RMP_IB_METHOD_QP_QUERY_PATHS);
		req_handle(&r, RMP_IB_ATTR_QP_QUERY_PATHS_HANDLE, qp->handle);
		if (max)
			req_out(&r, RMP_IB_ATTR_QP_QUERY_PATHS_STATS, k,
				max * *stride, UVERBS_ATTR_F_MANDATORY);
		req_out(&r, RMP_IB_ATTR_QP_QUERY_PATHS_NUM, num, sizeof(*num),
			UVERBS_ATTR_F_MANDATORY);
		if (sized)
			req_u32_in(&r, RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE,
				   *stride);
		err = req_send(qp->context, &r);
		if (err != EPROTONOSUPPORT || !sized ||
		    !rmpdv_is_rmp_device(qp->context))
			return err;
		sized = false;
		*stride = RMP_IB_PATH_STATS_SIZE_V1;
	} while (1);
}

/*
 * The paths of @qp into @out, entries @size bytes apart: the leading
 * @size bytes of each struct rmpdv_path_stats, for callers built when it
 * was that big.
 */
static int query_paths_sized(struct ibv_qp *qp, void *out, size_t size,
			     size_t max, size_t *n)
{
	struct rmp_ib_path_stats e;
	struct rmpdv_path_stats u;
	size_t stride = sizeof(e), i;
	unsigned char *k = NULL;
	uint32_t num = 0;
	int err;

	if (max > 64)
		max = 64;
	if (max) {
		k = calloc(max, sizeof(e));
		if (!k) {
			errno = ENOMEM;
			return ENOMEM;
		}
	}
	err = query_paths(qp, k, max, &stride, &num);
	if (err) {
		free(k);
		return qp_error(qp, err);
	}
	for (i = 0; i < max && i < num; i++) {
		memset(&e, 0, sizeof(e));
		memcpy(&e, k + i * stride, stride);
		u = (struct rmpdv_path_stats){
			.sport = e.sport,
			.live = e.live,
			.inflight = e.inflight,
			.srtt_ns = e.srtt_ns,
			.ecn_share = e.ecn_share,
			.sent = e.sent,
			.delivered = e.delivered,
			.lost = e.lost,
			.ecn_marked = e.ecn_marked,
			.deaths = e.deaths,
			.revivals = e.revivals,
			.replaced = e.replaced,
			.sent_bytes = e.sent_bytes,
			.delivered_bytes = e.delivered_bytes,
		};
		memcpy((unsigned char *)out + i * size, &u, size);
	}
	free(k);
	*n = num;
	return 0;
}

/**
 * rmpdv_qp_query_paths_1_1() - rmpdv_qp_query_paths() of symbol version
 *	RMPDV_1.1: the paths of a spraying QP and their counters
 * @qp: a QP of this process
 * @out: room for @max paths
 * @max: how many paths to store; 0 to learn only their number, and more
 *	than 64 (the most a QP has) counts as 64
 * @n: set to the number of paths the QP has, 0 if it does not spray; the
 *	first min(@max, @n) entries of @out are filled in
 *
 * @out and @n are written only on success. A kernel older than the byte
 * counters leaves them 0.
 *
 * Return: 0, or an errno value, stored in errno too: ENOMEM if the
 * kernel's answer cannot be allocated room for, EOPNOTSUPP if the device
 * is not an rmp device, ENOENT if the kernel knows no such QP of this
 * process, or what else the kernel answered.
 */
__attribute__((symver("rmpdv_qp_query_paths@@RMPDV_1.1")))
int rmpdv_qp_query_paths_1_1(struct ibv_qp *qp,
			     struct rmpdv_path_stats *out, size_t max,
			     size_t *n)
{
	return query_paths_sized(qp, out, sizeof(*out), max, n);
}

/**
 * rmpdv_qp_query_paths_1_0() - rmpdv_qp_query_paths() of symbol version
 *	RMPDV_1.0, for programs linked against librmpdv 1.0
 * @qp: a QP of this process
 * @out: room for @max paths of 1.0's struct rmpdv_path_stats, which ends
 *	before the byte counters
 * @max: as for rmpdv_qp_query_paths_1_1()
 * @n: as for rmpdv_qp_query_paths_1_1()
 *
 * Return: as for rmpdv_qp_query_paths_1_1().
 */
__attribute__((symver("rmpdv_qp_query_paths@RMPDV_1.0")))
int rmpdv_qp_query_paths_1_0(struct ibv_qp *qp, void *out, size_t max,
			     size_t *n)
{
	return query_paths_sized(qp, out,
				 offsetof(struct rmpdv_path_stats, sent_bytes),
				 max, n);
}
