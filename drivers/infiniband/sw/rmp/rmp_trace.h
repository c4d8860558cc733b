/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp's tracepoints (tracefs: events/rmp/).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rmp

/* Outside the multi-read part: define_trace.h reads that part again. */
#ifndef RMP_TRACE_ENUMS
#define RMP_TRACE_ENUMS
/**
 * enum rmp_path_change - what happened to a path of a spraying QP
 * @RMP_PATH_DIED: it stopped delivering; its packets go on the others
 * @RMP_PATH_REVIVED: a probe (or a late packet) got through
 * @RMP_PATH_REPLACED: its entropy (UDP source port) was replaced
 * @RMP_PATH_HOME: it went back to the port its failed probes had given
 *	up: a probe found that route working again
 */
enum rmp_path_change {
	RMP_PATH_DIED,
	RMP_PATH_REVIVED,
	RMP_PATH_REPLACED,
	RMP_PATH_HOME,
};
#endif /* RMP_TRACE_ENUMS */

#if !defined(RMP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RMP_TRACE_H

#include <linux/tracepoint.h>

TRACE_DEFINE_ENUM(RMP_PATH_DIED);
TRACE_DEFINE_ENUM(RMP_PATH_REVIVED);
TRACE_DEFINE_ENUM(RMP_PATH_REPLACED);
TRACE_DEFINE_ENUM(RMP_PATH_HOME);

TRACE_EVENT(rmp_path,
	TP_PROTO(const char *dev, u32 qpn, u32 path, u16 sport,
		 enum rmp_path_change change),
	TP_ARGS(dev, qpn, path, sport, change),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u32, path)
		__field(u16, sport)
		__field(u8, change)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__entry->qpn = qpn;
		__entry->path = path;
		__entry->sport = sport;
		__entry->change = change;
	),
	TP_printk("%s qpn %u path %u sport %u %s", __get_str(dev),
		  __entry->qpn, __entry->path, __entry->sport,
		  __print_symbolic(__entry->change,
				   { RMP_PATH_DIED, "died" },
				   { RMP_PATH_REVIVED, "revived" },
				   { RMP_PATH_REPLACED, "replaced" },
				   { RMP_PATH_HOME, "home" }))
);

#endif /* RMP_TRACE_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE rmp_trace
#include <trace/define_trace.h>
