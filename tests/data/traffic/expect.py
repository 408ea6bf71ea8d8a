#!/usr/bin/env python3
"""Reference decoder for the recorded traffic in this folder (Python 3 stdlib only).

    python3 expect.py           recompute every entry's "expect" and rewrite manifest.json
    python3 expect.py --check   recompute and compare; exit 1 on any difference
    python3 expect.py --show F  print what F decodes to (F = a file name from the manifest)

It is written from the public API documentation of the three wire formats, not
from Sandcastle's C++ code, so that the C++ test compares against an independent
reading of the same bytes.  The rules below are the contract the C++ test checks.

SSE framing (all .sse files)
----------------------------
WHATWG "server-sent events" parsing: the byte stream is UTF-8; lines end in
CRLF, LF or CR; a line starting with ":" is a comment; otherwise the text before
the first ":" is the field name and the rest (minus ONE leading space) is the
value; "data" values of one event are joined with "\\n"; "event" sets the event
name; an empty line dispatches the event.  A field name is taken literally, so a
line " data: {...}" (leading space) is an unknown field and is ignored.  A
final event that is not followed by an empty line is dispatched too (lenient,
like most HTTP client SDKs; every file here ends with a blank line anyway, which
--check verifies).  A data payload of "[DONE]" is the chat end sentinel and is
skipped.  Every other payload must be a JSON object.

The JSON "type" field decides what a responses/messages event is; the SSE
"event:" name, where present, is checked to be equal to it (it always is).

chat (OpenAI Chat Completions chunks and the many OpenAI-compatible servers)
-----------------------------------------------------------------------------
* If a chunk has a top-level "error" object: expect = {"error": error["type"]}
  (falling back to error["code"], as a string, when there is no "type":
  OpenRouter sends {"code": 400, ...} -> "400"), nothing else.
* Only choices[0] (the first element of "choices") is read; chunks with an
  empty or missing "choices" list contribute only their usage.
* text: delta.content when it is a string.  When delta.content is a list
  (Mistral magistral), parts of type "text" add part["text"] to text, and parts
  of type "thinking" add to reasoning the concatenated "text" of the inner
  part["thinking"] list (or part["thinking"] itself if it is a string).
* reasoning also gets delta.reasoning_content and delta.reasoning when they
  are strings (DeepSeek / xAI / Z.ai use the former, OpenRouter / Groq the
  latter).  Chat reasoning has no block separators: plain concatenation.
* tool calls are keyed by delta.tool_calls[k].index, kept in order of first
  appearance.  When an element has no "index" (Mistral sends none), its
  position k in that chunk's tool_calls list is used as the index.
  id = first non-empty "id" seen for the key, name = first non-empty
  function.name, arguments = concatenation of every function.arguments string
  (null / missing ones add nothing).
* finish = the last non-null choices[0].finish_reason.
* usage comes from the last chunk whose top-level "usage" is a non-null
  object: input = prompt_tokens, output = completion_tokens,
  cached = usage.prompt_tokens_details.cached_tokens.  Vendor extensions elsewhere (e.g. Groq's x_groq.usage) are
  NOT read.

responses (OpenAI Responses API events, also served by Azure, xAI, DeepSeek,
OpenRouter, LM Studio, AWS Bedrock's OpenAI-compatible endpoint)
-----------------------------------------------------------------------------
* An event of type "error" gives expect = {"error": T} where T is
  event["error"]["type"] when the event nests an "error" object, else
  event["code"] (the older flat shape).  Nothing else is recorded.
* text: concatenation of response.output_text.delta "delta"s (all message
  items, no separator).
* reasoning: concatenation of response.reasoning_summary_text.delta and
  response.reasoning_text.delta "delta"s.  Each delta belongs to a "part",
  keyed (kind, item_id, summary_index) for summary text and
  (kind, item_id, content_index) for raw reasoning text, where item_id falls
  back to output_index when missing.  When a delta starts a part that is
  different from the previous reasoning delta's part and reasoning is already
  non-empty, "\\n\\n" is appended first.  So: new summary_index, new reasoning
  item, or a switch between summary and raw text => "\\n\\n".
* tool calls: items of type "function_call" announced by
  response.output_item.added, in the order those events arrive (which is
  output_index order in every recording).  id = item.call_id, name = item.name.
  arguments = the final string: response.function_call_arguments.done
  "arguments", else response.output_item.done item.arguments.  When there were
  response.function_call_arguments.delta events for the item, their
  concatenation must equal the final string (asserted).  Other output item
  types (reasoning, message, web_search_call, custom tools...) are not tool calls.
* finish = response.status of the terminal event: response.completed,
  response.incomplete or response.failed (the last one seen).
* usage from that terminal event's response.usage: input = input_tokens,
  output = output_tokens, cached = input_tokens_details.cached_tokens.

messages (Anthropic Messages API events)
----------------------------------------
* An event of type "error" gives expect = {"error": event["error"]["type"]}.
* text: concatenation of text_delta "text".
* reasoning: concatenation of thinking_delta "thinking"; "\\n\\n" is inserted
  before the first thinking_delta of a content block whose index differs from
  the previous thinking_delta's block, when reasoning is already non-empty.
  signature_delta and redacted_thinking blocks add nothing.
* tool calls: content blocks whose content_block.type is "tool_use" (NOT
  server_tool_use / mcp_tool_use), in block index order.  id and name from
  content_block_start.  arguments = concatenation of the block's
  input_json_delta "partial_json" strings; when the block received no
  input_json_delta at all, the content_block_start "input" serialised with
  json.dumps(input, separators=(",", ":"), ensure_ascii=False).  NOTE: a block
  that received only empty partial_json deltas therefore has arguments "".
* finish = message_delta delta.stop_reason (last one seen).
* usage: start from message_start message.usage, then every message_delta
  usage overrides the keys it carries (null values are ignored):
  input = input_tokens, output = output_tokens,
  cached = cache_read_input_tokens, cache_write = cache_creation_input_tokens.

error bodies (.json, non-streamed HTTP error responses)
-------------------------------------------------------
expect = {"error": error.type} plus "code" and "failed_generation" when the
body has them (Groq's tool_use_failed).

In every expect object, keys that would be empty are omitted: "text" and
"reasoning" only when non-empty, "tool_calls" only when there is one, "finish"
only when seen, "usage" only with the fields the stream gives.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "manifest.json")


class DecodeError(Exception):
    pass


# --------------------------------------------------------------------------
# SSE
# --------------------------------------------------------------------------

def split_lines(text):
    lines, i, n, start = [], 0, len(text), 0
    while i < n:
        c = text[i]
        if c == "\r":
            lines.append(text[start:i])
            if i + 1 < n and text[i + 1] == "\n":
                i += 1
            start = i + 1
        elif c == "\n":
            lines.append(text[start:i])
            start = i + 1
        i += 1
    tail = text[start:]
    return lines, tail


def parse_sse(raw):
    """Return (events, ends_cleanly); events = list of (event_name, data)."""
    text = raw.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines, tail = split_lines(text)
    if tail:
        lines.append(tail)
    events = []
    name, data, has_data = "", [], False
    for line in lines:
        if line == "":
            if has_data:
                events.append((name, "\n".join(data)))
            name, data, has_data = "", [], False
            continue
        if line.startswith(":"):
            continue
        if ":" in line:
            field, value = line.split(":", 1)
            if value.startswith(" "):
                value = value[1:]
        else:
            field, value = line, ""
        if field == "data":
            data.append(value)
            has_data = True
        elif field == "event":
            name = value
        # "id", "retry" and unknown fields are ignored
    ends_cleanly = not has_data
    if has_data:
        events.append((name, "\n".join(data)))
    return events, ends_cleanly


def json_events(raw):
    events, clean = parse_sse(raw)
    out = []
    for name, data in events:
        if data.strip() == "[DONE]":
            continue
        try:
            obj = json.loads(data)
        except ValueError as e:
            raise DecodeError("bad JSON in data line: %r (%s)" % (data[:80], e))
        if not isinstance(obj, dict):
            raise DecodeError("data payload is not a JSON object: %r" % data[:80])
        out.append((name, obj))
    return out, clean


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def finish_expect(text, reasoning, tools, finish, usage):
    exp = {}
    if text:
        exp["text"] = text
    if reasoning:
        exp["reasoning"] = reasoning
    if tools:
        exp["tool_calls"] = tools
    if finish is not None:
        exp["finish"] = finish
    usage = {k: v for k, v in usage.items() if v is not None}
    if usage:
        exp["usage"] = usage
    return exp


def is_str(x):
    return isinstance(x, str)


# --------------------------------------------------------------------------
# chat
# --------------------------------------------------------------------------

def decode_chat(raw):
    events, _ = json_events(raw)
    text, reasoning = [], []
    tools = {}  # index -> dict, insertion order = first appearance
    finish = None
    usage_obj = None
    for _name, chunk in events:
        err = chunk.get("error")
        if isinstance(err, dict):
            return {"error": str(err.get("type") or err.get("code"))}
        if isinstance(chunk.get("usage"), dict):
            usage_obj = chunk["usage"]
        choices = chunk.get("choices") or []
        if not choices:
            continue
        choice = choices[0]
        delta = choice.get("delta") or {}
        content = delta.get("content")
        if is_str(content):
            text.append(content)
        elif isinstance(content, list):
            for part in content:
                if not isinstance(part, dict):
                    continue
                if part.get("type") == "text" and is_str(part.get("text")):
                    text.append(part["text"])
                elif part.get("type") == "thinking":
                    th = part.get("thinking")
                    if is_str(th):
                        reasoning.append(th)
                    elif isinstance(th, list):
                        for inner in th:
                            if isinstance(inner, dict) and is_str(inner.get("text")):
                                reasoning.append(inner["text"])
        for key in ("reasoning_content", "reasoning"):
            if is_str(delta.get(key)):
                reasoning.append(delta[key])
        for pos, tc in enumerate(delta.get("tool_calls") or []):
            idx = tc.get("index", pos)
            if idx is None:
                idx = pos
            slot = tools.setdefault(idx, {"id": "", "name": "", "arguments": ""})
            if not slot["id"] and tc.get("id"):
                slot["id"] = tc["id"]
            fn = tc.get("function") or {}
            if not slot["name"] and fn.get("name"):
                slot["name"] = fn["name"]
            if is_str(fn.get("arguments")):
                slot["arguments"] += fn["arguments"]
        if choice.get("finish_reason") is not None:
            finish = choice["finish_reason"]
    usage = {}
    if usage_obj is not None:
        usage["input"] = usage_obj.get("prompt_tokens")
        usage["output"] = usage_obj.get("completion_tokens")
        details = usage_obj.get("prompt_tokens_details")
        if isinstance(details, dict):
            usage["cached"] = details.get("cached_tokens")
    return finish_expect("".join(text), "".join(reasoning), list(tools.values()), finish, usage)


# --------------------------------------------------------------------------
# responses
# --------------------------------------------------------------------------

def decode_responses(raw):
    events, _ = json_events(raw)
    text, reasoning = [], []
    last_part = None
    calls = []          # list of dicts in announcement order
    by_key = {}         # item id / output_index -> call dict
    deltas = {}         # same key -> list of argument deltas
    finish, usage_obj = None, None

    def key_of(ev):
        return ev.get("item_id") if ev.get("item_id") is not None else ("#", ev.get("output_index"))

    for name, ev in events:
        t = ev.get("type")
        if name and name != t:
            raise DecodeError("SSE event name %r != JSON type %r" % (name, t))
        if t == "error":
            if isinstance(ev.get("error"), dict):
                return {"error": ev["error"].get("type") or ev["error"].get("code")}
            return {"error": ev.get("code")}
        if t == "response.output_text.delta":
            text.append(ev.get("delta") or "")
        elif t in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            item = ev.get("item_id") if ev.get("item_id") is not None else ev.get("output_index")
            if t == "response.reasoning_summary_text.delta":
                part = ("summary", item, ev.get("summary_index"))
            else:
                part = ("text", item, ev.get("content_index"))
            d = ev.get("delta") or ""
            if part != last_part and reasoning:
                reasoning.append("\n\n")
            last_part = part
            reasoning.append(d)
        elif t == "response.output_item.added":
            item = ev.get("item") or {}
            if item.get("type") == "function_call":
                call = {"id": item.get("call_id") or "", "name": item.get("name") or "",
                        "arguments": None}
                calls.append(call)
                if item.get("id") is not None:
                    by_key[item["id"]] = call
                by_key[("#", ev.get("output_index"))] = call
        elif t == "response.function_call_arguments.delta":
            k = key_of(ev)
            if k not in by_key:
                k = ("#", ev.get("output_index"))
            deltas.setdefault(id(by_key[k]), []).append(ev.get("delta") or "")
        elif t == "response.function_call_arguments.done":
            k = key_of(ev)
            if k not in by_key:
                k = ("#", ev.get("output_index"))
            by_key[k]["arguments"] = ev.get("arguments")
        elif t == "response.output_item.done":
            item = ev.get("item") or {}
            if item.get("type") == "function_call":
                call = by_key.get(item.get("id")) or by_key.get(("#", ev.get("output_index")))
                if call is None:
                    raise DecodeError("output_item.done for a function_call never added")
                if call["arguments"] is None:
                    call["arguments"] = item.get("arguments")
                elif item.get("arguments") is not None and item["arguments"] != call["arguments"]:
                    raise DecodeError("function_call_arguments.done != output_item.done arguments")
                if not call["id"] and item.get("call_id"):
                    call["id"] = item["call_id"]
                if not call["name"] and item.get("name"):
                    call["name"] = item["name"]
        elif t in ("response.completed", "response.incomplete", "response.failed"):
            resp = ev.get("response") or {}
            finish = resp.get("status")
            usage_obj = resp.get("usage")
    for call in calls:
        parts = deltas.get(id(call))
        if call["arguments"] is None:
            call["arguments"] = "".join(parts or [])
        elif parts is not None and "".join(parts) != call["arguments"]:
            raise DecodeError("argument deltas do not add up to the final arguments for %s" % call["id"])
    usage = {}
    if isinstance(usage_obj, dict):
        usage["input"] = usage_obj.get("input_tokens")
        usage["output"] = usage_obj.get("output_tokens")
        details = usage_obj.get("input_tokens_details")
        if isinstance(details, dict):
            usage["cached"] = details.get("cached_tokens")
    return finish_expect("".join(text), "".join(reasoning), calls, finish, usage)


# --------------------------------------------------------------------------
# messages
# --------------------------------------------------------------------------

def decode_messages(raw):
    events, _ = json_events(raw)
    text, reasoning = [], []
    last_thinking_block = None
    blocks = {}  # index -> tool dict (tool_use only)
    got_delta = {}
    finish = None
    usage_src = {}
    for name, ev in events:
        t = ev.get("type")
        if name and name != t:
            raise DecodeError("SSE event name %r != JSON type %r" % (name, t))
        if t == "error":
            return {"error": (ev.get("error") or {}).get("type")}
        if t == "message_start":
            u = (ev.get("message") or {}).get("usage") or {}
            for k, v in u.items():
                if v is not None:
                    usage_src[k] = v
        elif t == "content_block_start":
            cb = ev.get("content_block") or {}
            if cb.get("type") == "tool_use":
                blocks[ev["index"]] = {"id": cb.get("id") or "", "name": cb.get("name") or "",
                                       "arguments": "", "_input": cb.get("input")}
                got_delta[ev["index"]] = False
        elif t == "content_block_delta":
            d = ev.get("delta") or {}
            dt = d.get("type")
            if dt == "text_delta":
                text.append(d.get("text") or "")
            elif dt == "thinking_delta":
                if last_thinking_block is not None and ev.get("index") != last_thinking_block and reasoning:
                    reasoning.append("\n\n")
                last_thinking_block = ev.get("index")
                reasoning.append(d.get("thinking") or "")
            elif dt == "input_json_delta":
                idx = ev.get("index")
                if idx in blocks:
                    blocks[idx]["arguments"] += d.get("partial_json") or ""
                    got_delta[idx] = True
        elif t == "message_delta":
            d = ev.get("delta") or {}
            if "stop_reason" in d and d["stop_reason"] is not None:
                finish = d["stop_reason"]
            for k, v in (ev.get("usage") or {}).items():
                if v is not None:
                    usage_src[k] = v
    tools = []
    for idx in sorted(blocks):
        b = blocks[idx]
        if not got_delta[idx]:
            b["arguments"] = json.dumps(b["_input"] if b["_input"] is not None else {},
                                        separators=(",", ":"), ensure_ascii=False)
        # A tool without arguments streams one input_json_delta with partial_json "": its
        # arguments are the empty object, as the API means them (the tool_use input is {}).
        if b["arguments"] == "":
            b["arguments"] = "{}"
        tools.append({"id": b["id"], "name": b["name"], "arguments": b["arguments"]})
    usage = {
        "input": usage_src.get("input_tokens"),
        "output": usage_src.get("output_tokens"),
        "cached": usage_src.get("cache_read_input_tokens"),
        "cache_write": usage_src.get("cache_creation_input_tokens"),
    }
    return finish_expect("".join(text), "".join(reasoning), tools, finish, usage)


# --------------------------------------------------------------------------
# error bodies
# --------------------------------------------------------------------------

def decode_error_body(raw):
    body = json.loads(raw.decode("utf-8"))
    err = body.get("error") or {}
    exp = {"error": err.get("type") or err.get("code")}
    for k in ("code", "failed_generation"):
        if err.get(k) is not None:
            exp[k] = err[k]
    return exp


DECODERS = {"chat": decode_chat, "responses": decode_responses, "messages": decode_messages}


def decode_entry(entry):
    path = os.path.join(HERE, entry["file"])
    with open(path, "rb") as f:
        raw = f.read()
    if entry.get("kind") == "error" and entry["file"].endswith(".json"):
        return decode_error_body(raw)
    _, clean = parse_sse(raw)
    if not clean:
        raise DecodeError("%s: last event is not terminated by a blank line" % entry["file"])
    return DECODERS[entry["format"]](raw)


def main(argv):
    with open(MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    if len(argv) > 2 and argv[1] == "--show":
        for e in manifest:
            if e["file"] == argv[2]:
                print(json.dumps(decode_entry(e), indent=2, ensure_ascii=False))
        return 0
    check = "--check" in argv
    bad = 0
    files = set()
    for e in manifest:
        if e["file"] in files:
            print("duplicate manifest entry: %s" % e["file"])
            bad += 1
        files.add(e["file"])
        try:
            exp = decode_entry(e)
        except (DecodeError, KeyError, ValueError) as ex:
            print("FAIL %s: %s" % (e["file"], ex))
            bad += 1
            continue
        if check:
            if e.get("expect") != exp:
                print("MISMATCH %s" % e["file"])
                bad += 1
        else:
            e["expect"] = exp
    on_disk = {n for n in os.listdir(HERE) if n.endswith((".sse", ".json")) and n != "manifest.json"}
    for n in sorted(on_disk - files):
        print("file not in manifest: %s" % n)
        bad += 1
    for n in sorted(files - on_disk):
        print("manifest names a missing file: %s" % n)
        bad += 1
    if not check and not bad:
        with open(MANIFEST, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2, ensure_ascii=False)
            f.write("\n")
    print("%d entries, %d problems%s" % (len(manifest), bad, " (checked)" if check else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
