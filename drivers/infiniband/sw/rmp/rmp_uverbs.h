/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp's driver-specific uverbs methods (include/uapi/rdma/rmp_user_ioctl.h).
 */
#ifndef RMP_UVERBS_H
#define RMP_UVERBS_H

#include <rdma/uverbs_ioctl.h>

extern const struct uapi_definition rmp_uverbs_defs[];

#endif /* RMP_UVERBS_H */
