"""Plan (plan_to_json) + IR -> the files of a standalone C project. Pure functions returning text;
`write_project` is the only one touching the disk.

The project: src/chain.c (the chain state, one function per sub-box named as in the model, the
schedule tables of the plan's threads and signals), src/reference.c (a plain sequential
implementation of the chain from the IR alone, the checksum's ground truth), src/main.c, the runtime
(runtime/, copied from runtime-c/lib), CMakeLists.txt and README.md.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chainlab.codegen.kernels import MAX_WIDTH, PIXELS, c_name, kernel_call
from chainlab.errors import ModelError
from chainlab.ir import find_chain
from chainlab.plan.dataflow import data_flow_order

RUNTIME_DIR = Path(__file__).resolve().parents[3] / "runtime-c" / "lib"
RUNTIME_FILES = ["include/chainlab/rt.h", "include/chainlab/kernels.h", "src/rt.c", "src/kernels.c"]


def runtime_sources(root: Path = RUNTIME_DIR) -> dict[str, str]:
    """The runtime's files as {path under runtime/: text}."""
    return {f"runtime/{name}": (root / name).read_text() for name in RUNTIME_FILES}


class _Model:
    """What the generator needs from the IR for one chain: boxes, images, port wiring."""

    def __init__(self, ir: dict[str, Any], chain: str) -> None:
        self.chain = find_chain(ir, chain)
        boxes = {b["name"]: b for b in ir["boxes"]}
        self.images = {i["name"]: i for i in ir["images"]}
        self.instances = [i["name"] for i in self.chain["instances"]]
        self.box = {i["name"]: boxes[i["box"]] for i in self.chain["instances"]}
        self.source_of = {(c["to"]["instance"], c["to"]["port"]): f'{c["from"]["instance"]}.{c["from"]["port"]}'
                          for c in self.chain["connections"]}

    def ports(self, inst: str, direction: str) -> list[str]:
        return [p["name"] for p in self.box[inst]["ports"] if p["direction"] == direction]

    def inputs(self, inst: str) -> list[str]:
        out = []
        for port in self.ports(inst, "in"):
            if (inst, port) not in self.source_of:
                raise ModelError(f"input port {port} of instance {inst} is not connected", element=inst)
            out.append(self.source_of[(inst, port)])
        return out

    def outputs(self, inst: str) -> list[str]:
        return [f"{inst}.{port}" for port in self.ports(inst, "out")]

    def image_of(self, buffer: str) -> dict[str, Any]:
        inst, port = buffer.rsplit(".", 1)
        p = next(p for p in self.box[inst]["ports"] if p["name"] == port)
        return self.images[p["image"]]

    def seed(self, inst: str) -> int:
        args = self.box[inst]["kernel"].get("args") or []
        return int(args[0]) if args else self.instances.index(inst) * 16

    def topo(self) -> list[str]:
        """The instances in the planner's data-flow order (a cycle is refused there, with the same message)."""
        index = {name: k for k, name in enumerate(self.instances)}
        edges = [(index[c["from"]["instance"]], index[c["to"]["instance"]], c.get("loc")) for c in self.chain["connections"]]
        return [self.instances[k] for k in data_flow_order(self.instances, edges, self.chain.get("loc"))]


def validate_plan(plan: dict[str, Any], ir: dict[str, Any]) -> None:
    """Refuse plans the runtime cannot run, with a message naming the element (ModelError)."""
    m = _Model(ir, plan["chain"])
    buffers = {b["name"]: b for b in plan["buffers"]}
    subs = {s["name"] for s in plan["sub_boxes"]}
    for s in plan["sub_boxes"]:
        for b in m.inputs(s["instance"]) + m.outputs(s["instance"]):
            if b not in buffers:
                raise ModelError(f"sub-box {s['name']} uses buffer {b}, which the plan does not allocate", element=s["name"])
    for b in buffers.values():
        if b["offset"] < 0 or b["offset"] + b["bytes"] > plan["arena_bytes"]:
            raise ModelError(f"buffer {b['name']} ({b['offset']} + {b['bytes']} B) lies outside the arena of {plan['arena_bytes']} B",
                             element=b["name"])
        img = m.image_of(b["name"])
        if img["width"] > MAX_WIDTH:
            raise ModelError(f"image {img['name']} is {img['width']} pixels wide; the kernels handle at most {MAX_WIDTH}", element=img["name"])
        if img["pixel"] not in PIXELS:
            raise ModelError(f"pixel type {img['pixel']} has no C kernels", element=img["name"])
    signals = {s["name"]: s for s in plan["signals"]}
    sent: set[str] = set()
    waited: dict[str, str] = {}
    executed: dict[str, int] = {}
    for th in plan["threads"]:
        for st in th["steps"]:
            if st["op"] in ("wait", "signal"):
                if st["signal"] not in signals:
                    raise ModelError(f"thread {th['name']} uses signal {st['signal']}, which the plan does not declare", element=st["signal"])
                (sent.add(st["signal"]) if st["op"] == "signal" else waited.setdefault(st["signal"], th["name"]))
            elif st["op"] == "execute":
                if st["sub_box"] not in subs:
                    raise ModelError(f"thread {th['name']} executes unknown sub-box {st['sub_box']}", element=st["sub_box"])
                executed[st["sub_box"]] = executed.get(st["sub_box"], 0) + 1
    for name, thread in waited.items():
        if name not in sent:
            raise ModelError(f"signal {name} is waited on by thread {thread} but no thread sends it (the run would hang)", element=name)
    for s in subs:
        if executed.get(s, 0) != 1:
            raise ModelError(f"sub-box {s} is executed {executed.get(s, 0)} times per iteration by the plan's threads (must be once)", element=s)


def _image_init(m: _Model, buffer: str, data: str) -> str:
    img = m.image_of(buffer)
    return f"(cl_image){{{data}, {img['width']}, {img['height']}, {PIXELS[img['pixel']]}}}"


def _plan_summary(plan: dict[str, Any]) -> str:
    keys = ("chain", "heuristic", "memory", "threads_requested", "cores", "pinned", "barrier", "arena_bytes", "sum_bytes", "seed")
    summary = {k: plan.get(k) for k in keys}
    summary["threads"] = [{"name": t["name"], "core": t["core"], "sub_boxes": t["sub_boxes"]} for t in plan["threads"]]
    summary["signals"] = len(plan["signals"])
    summary["predicted"] = plan.get("latency")
    return json.dumps(summary)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def chain_source(plan: dict[str, Any], ir: dict[str, Any]) -> str:
    """src/chain.c: state, sub-box functions and the schedule tables."""
    m = _Model(ir, plan["chain"])
    bufs = plan["buffers"]
    bidx = {b["name"]: k for k, b in enumerate(bufs)}
    avg = [i for i in m.instances if m.box[i]["kernel"]["name"] == "average"]
    subs = plan["sub_boxes"]
    sinks = [s["name"] for s in subs if s["kernel"] == "sink"]
    L = [f"/* Generated by chainlab from {plan.get('source') or 'the model'}: chain {plan['chain']}, "
         f"heuristic {plan['heuristic']}, memory {plan['memory']}, {len(plan['threads'])} thread(s). Do not edit. */",
         '#include "chain.h"', "", "#include <stdlib.h>", "", "/* Buffers in the arena (offset, bytes). */", "enum {"]
    for k, b in enumerate(bufs):
        L.append(f"    BUF_{c_name(b['name'])} = {k}, /* {b['name']}: offset {b['offset']}, {b['bytes']} B */")
    L += [f"    N_BUFFERS = {len(bufs)}", "};", "", "struct chain_state {",
          "    cl_image buf[N_BUFFERS];", f"    void *history[{max(1, len(avg))}]; /* average kernels' frames, outside the arena */",
          f"    uint64_t sink[{max(1, len(sinks))}]; /* one checksum per sink sub-box */", "};", ""]
    L.append("chain_state *chain_state_create(unsigned char *arena) {")
    L.append("    chain_state *s = calloc(1, sizeof *s);")
    L.append("    if (!s) return NULL;")
    for k, b in enumerate(bufs):
        init = _image_init(m, b["name"], f"arena + {b['offset']}")
        L.append(f"    s->buf[BUF_{c_name(b['name'])}] = {init};")
    for k, inst in enumerate(avg):
        frames = int(m.box[inst]["kernel"]["args"][0])
        L.append(f"    s->history[{k}] = calloc({frames}, cl_frame_bytes(&s->buf[BUF_{c_name(m.inputs(inst)[0])}])); /* {inst} */")
        L.append(f"    if (!s->history[{k}]) {{ chain_state_destroy(s); return NULL; }}")
    L += ["    return s;", "}", "", "void chain_state_destroy(chain_state *s) {", "    if (!s) return;"]
    L += [f"    free(s->history[{k}]);" for k in range(len(avg))]
    L += ["    free(s);", "}", "", "uint64_t chain_checksum(const chain_state *s) {", "    uint64_t sum = 0;",
          f"    for (int k = 0; k < {len(sinks)}; k++) sum += s->sink[k];", "    return sum;", "}", ""]
    for s in subs:
        inst = s["instance"]
        kernel = m.box[inst]["kernel"]
        r0, r1 = s["rows"]
        L.append(f"/* {s['name']}: box {s['box']}, kernel {kernel['name']}({', '.join(map(str, kernel.get('args', [])))}), "
                 f"rows {r0}..{r1} of {s['height']}, thread {s['thread']} */")
        L.append(f"static void {c_name(s['name'])}(void *user, uint64_t it) {{")
        L.append("    chain_state *s = user;")
        ins = [f"&s->buf[BUF_{c_name(b)}]" for b in m.inputs(inst)]
        outs = [f"&s->buf[BUF_{c_name(b)}]" for b in m.outputs(inst)]
        hist = f"s->history[{avg.index(inst)}]" if inst in avg else None
        sink = f"s->sink[{sinks.index(s['name'])}]" if s["name"] in sinks else None
        body = kernel_call(kernel, inst, m.seed(inst), ins, outs, str(r0), str(r1), hist, sink)
        if kernel["name"] != "source" and kernel["name"] != "sink" and "it" not in " ".join(body):
            L.append("    (void)it;")
        L += ["    " + line for line in body] + ["}", ""]
    sidx = {s["name"]: k for k, s in enumerate(subs)}
    gidx = {g["name"]: k for k, g in enumerate(plan["signals"])}
    L.append("enum { /* sub-boxes */")
    L += [f"    SB_{c_name(s['name'])} = {k}," for k, s in enumerate(subs)]
    L += ["};", "enum { /* signals */"] + [f"    SIG_{c_name(g['name'])} = {k}, /* {g['kind']}: {g['from']['sub_box']} -> {g['to']['sub_box']} */"
                                            for k, g in enumerate(plan["signals"])] + ["    SIG_NONE_ = -1", "};", ""]
    L.append("static const cl_subbox_spec sub_boxes[] = {")
    L += [f'    {{"{s["name"]}", {c_name(s["name"])}}},' for s in subs] + ["};", ""]
    L.append("static const cl_signal_spec signals[] = {")
    L += [f'    {{"{g["name"]}", {g["initial_tokens"]}}},' for g in plan["signals"]] or ['    {"none", 0},']
    L += ["};", ""]
    for th in plan["threads"]:
        L.append(f"/* thread {th['name']}: {th['listing']} */")
        L.append(f"static const cl_step {c_name(th['name'])}_steps[] = {{")
        for st in th["steps"]:
            if st["op"] == "execute":
                L.append(f"    {{CL_EXEC, SB_{c_name(st['sub_box'])}}},")
            elif st["op"] == "barrier":
                L.append("    {CL_BARRIER, 0},")
            else:
                L.append(f"    {{CL_{'WAIT' if st['op'] == 'wait' else 'SIGNAL'}, SIG_{c_name(st['signal'])}}},")
        L += ["};", ""]
    L.append("static const cl_thread_spec threads[] = {")
    for th in plan["threads"]:
        core = th["core"] if th["core"] is not None else -1
        L.append(f'    {{"{th["name"]}", {core}, {c_name(th["name"])}_steps, {len(th["steps"])}}},')
    L += ["};", ""]
    L += ["const cl_program chain_program = {", f'    "{plan["chain"]}",',
          f"    {len(plan['threads'])}, threads,", f"    {len(plan['signals'])}, signals,", f"    {len(subs)}, sub_boxes,",
          f"    {plan['arena_bytes']}, {plan.get('alignment', 64)},", "};", "",
          f"const char chain_plan_json[] = {_c_string(_plan_summary(plan))};",
          f"const unsigned long long chain_default_iterations = {plan_iterations(plan, ir)};", ""]
    del sidx, gidx, bidx
    return "\n".join(L)


def plan_iterations(plan: dict[str, Any], ir: dict[str, Any]) -> int:
    return int(find_chain(ir, plan["chain"]).get("iterations") or 1000)


def reference_source(ir: dict[str, Any], chain: str) -> str:
    """src/reference.c: the chain run box by box on whole frames, one private buffer per output port."""
    m = _Model(ir, chain)
    order = m.topo()
    bufs = [b for i in order for b in m.outputs(i)]
    avg = [i for i in order if m.box[i]["kernel"]["name"] == "average"]
    L = [f"/* Generated by chainlab: sequential reference of chain {chain} (from the model, not the plan). */",
         '#include "chain.h"', "", "#include <stdlib.h>", "", "uint64_t chain_reference(uint64_t iterations) {",
         f"    cl_image b[{max(1, len(bufs))}];", f"    void *history[{max(1, len(avg))}] = {{0}};", "    uint64_t sum = 0;", "    int ok = 1;", "    (void)history;"]
    for k, name in enumerate(bufs):
        img = m.image_of(name)
        init = _image_init(m, name, f"calloc({img['width'] * img['height']}, {img['pixel_bytes']})")
        L.append(f"    b[{k}] = {init}; /* {name} */")
        L.append(f"    ok = ok && b[{k}].data;")
    for k, inst in enumerate(avg):
        src = bufs.index(m.inputs(inst)[0])
        L.append(f"    history[{k}] = calloc({int(m.box[inst]['kernel']['args'][0])}, cl_frame_bytes(&b[{src}])); /* {inst} */")
        L.append(f"    ok = ok && history[{k}];")
    L += ["    for (uint64_t it = 0; ok && it < iterations; it++) {"]
    for inst in order:
        kernel = m.box[inst]["kernel"]
        h = m.image_of(m.outputs(inst)[0] if m.outputs(inst) else m.inputs(inst)[0])["height"]
        ins = [f"&b[{bufs.index(x)}]" for x in m.inputs(inst)]
        outs = [f"&b[{bufs.index(x)}]" for x in m.outputs(inst)]
        hist = f"history[{avg.index(inst)}]" if inst in avg else None
        L.append(f"        /* {inst}: box {m.box[inst]['name']} */")
        L += ["        " + x for x in kernel_call(kernel, inst, m.seed(inst), ins, outs, "0", str(h), hist, "sum")]
    L += ["    }"]
    L += [f"    free(b[{k}].data);" for k in range(len(bufs))] + [f"    free(history[{k}]);" for k in range(len(avg))]
    L += ["    return ok ? sum : 0;", "}", ""]
    return "\n".join(L)


CHAIN_H = """/* Generated by chainlab: the chain's program for the runtime. */
#ifndef CHAIN_H
#define CHAIN_H
#include "chainlab/kernels.h"
#include "chainlab/rt.h"

typedef struct chain_state chain_state;
extern const cl_program chain_program;
extern const char chain_plan_json[];
extern const unsigned long long chain_default_iterations;
chain_state *chain_state_create(unsigned char *arena);
void chain_state_destroy(chain_state *s);
uint64_t chain_checksum(const chain_state *s);
uint64_t chain_reference(uint64_t iterations);
#endif
"""

MAIN_C = r"""/* Generated by chainlab: runs the chain (no arguments needed). Options:
 *   --iterations N   --period-ns N   --out DIR (latencies.csv, run.json)   --fifo PRIO   --lock   --huge
 *   --spin N   --watchdog S   --timers   --progress   --calibrate N (calibration.csv)   --reference
 * Exit status: 0 done or stopped by SIGINT/SIGTERM (data kept), 2 bad arguments or setup, 3 watchdog abort. */
#include "chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    cl_options o;
    cl_default_options(&o);
    o.iterations = chain_default_iterations;
    const char *out = ".";
    int calibrate = 0, reference = 0;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(a, "--iterations") && v) { o.iterations = strtoull(v, NULL, 10); k++; }
        else if (!strcmp(a, "--period-ns") && v) { o.period_ns = strtoll(v, NULL, 10); k++; }
        else if (!strcmp(a, "--out") && v) { out = v; k++; }
        else if (!strcmp(a, "--fifo") && v) { o.fifo_priority = atoi(v); k++; }
        else if (!strcmp(a, "--spin") && v) { o.spin = atoi(v); k++; }
        else if (!strcmp(a, "--watchdog") && v) { o.watchdog_s = atof(v); k++; }
        else if (!strcmp(a, "--calibrate") && v) { calibrate = atoi(v); k++; }
        else if (!strcmp(a, "--lock")) o.lock_memory = 1;
        else if (!strcmp(a, "--huge")) o.huge_pages = 1;
        else if (!strcmp(a, "--timers")) o.timers = 1;
        else if (!strcmp(a, "--progress")) o.progress = 1;
        else if (!strcmp(a, "--reference")) reference = 1;
        else { fprintf(stderr, "unknown argument %s (see the comment at the top of main.c)\n", a); return 2; }
    }
    if (reference) {
        printf("completed %llu of %llu\nchecksum %016llx\n", (unsigned long long)o.iterations,
               (unsigned long long)o.iterations, (unsigned long long)chain_reference(o.iterations));
        return 0;
    }
    cl_ctx *c = cl_create(&chain_program, &o, NULL);
    if (!c) return 2;
    chain_state *s = chain_state_create(cl_arena(c));
    if (!s) { fprintf(stderr, "chainlab: out of memory for the chain state\n"); cl_destroy(c); return 2; }
    cl_set_user(c, s);
    char path[4096];
    int rc = 0;
    if (calibrate > 0) {
        snprintf(path, sizeof path, "%s/calibration.csv", out);
        rc = cl_calibrate(c, calibrate, path) ? 2 : 0;
        printf("calibration %s\n", path);
    } else {
        int status = cl_run(c);
        snprintf(path, sizeof path, "%s/latencies.csv", out);
        cl_write_csv(c, path);
        snprintf(path, sizeof path, "%s/run.json", out);
        cl_write_json(c, path, chain_plan_json, chain_checksum(s), status);
        printf("completed %llu of %llu\nchecksum %016llx\n", (unsigned long long)cl_completed(c),
               (unsigned long long)o.iterations, (unsigned long long)chain_checksum(s));
        rc = status == 2 ? 3 : 0;
    }
    chain_state_destroy(s);
    cl_destroy(c);
    return rc;
}
"""

CMAKE = """# Generated by chainlab: chain {chain}. Build: cmake -S . -B build && cmake --build build
# Sanitizers: -DCHAINLAB_SANITIZE=address (ASan + UBSan) or -DCHAINLAB_SANITIZE=thread (TSan).
cmake_minimum_required(VERSION 3.16)
project(chain_{cname} C)
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
set(CMAKE_C_FLAGS_RELEASE "-O2")
add_compile_options(-Wall -Wextra -Werror)
set(CHAINLAB_SANITIZE "" CACHE STRING "address or thread")
if(CHAINLAB_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
elseif(CHAINLAB_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread)
  add_link_options(-fsanitize=thread)
endif()
find_package(Threads REQUIRED)
add_executable(chain src/main.c src/chain.c src/reference.c runtime/src/rt.c runtime/src/kernels.c)
target_include_directories(chain PRIVATE src runtime/include)
target_link_libraries(chain Threads::Threads m)
"""


def readme(plan: dict[str, Any]) -> str:
    lines = [f"# Chain {plan['chain']} (generated by chainlab)", "",
             f"Heuristic **{plan['heuristic']}**, memory **{plan['memory']}**, {len(plan['threads'])} thread(s), "
             f"arena {plan['arena_bytes']} B.", "", "```", "cmake -S . -B build && cmake --build build",
             "./build/chain                      # runs; writes latencies.csv and run.json here",
             "./build/chain --iterations 100 --out /tmp --progress", "./build/chain --reference   # sequential reference checksum",
             "./build/chain --calibrate 100      # every sub-box alone, calibration.csv", "```", "",
             "Options are listed at the top of `src/main.c`. Threads:", ""]
    lines += [f"- {t['name']} (core {t['core'] if t['core'] is not None else 'any'}): {t['listing']}" for t in plan["threads"]]
    return "\n".join(lines) + "\n"


def generate_project(plan: dict[str, Any], ir: dict[str, Any], runtime: dict[str, str] | None = None) -> dict[str, str]:
    """All files of the project as {relative path: text}. Raises ModelError for plans it refuses."""
    validate_plan(plan, ir)
    files = {
        "CMakeLists.txt": CMAKE.format(chain=plan["chain"], cname=c_name(plan["chain"])),
        "README.md": readme(plan),
        "src/chain.h": CHAIN_H,
        "src/chain.c": chain_source(plan, ir),
        "src/reference.c": reference_source(ir, plan["chain"]),
        "src/main.c": MAIN_C,
    }
    files.update(runtime if runtime is not None else runtime_sources())
    return files


def write_project(files: dict[str, str], directory: Path) -> None:
    for rel, text in files.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
