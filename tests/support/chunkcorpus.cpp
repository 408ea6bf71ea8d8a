// Chat completion chunks where a fast reader and a JSON DOM could part ways. Kept out of the
// test's own file because moc (Qt 6.4) misreads some raw string literals.
#include "chunkcorpus.h"

namespace Sandcastle::Testing {

QList<QPair<QByteArray, QByteArray>> trickyChunks()
{
    return {
        {"text",
         QByteArray(R"({"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]})")},
        {"escapes",
         QByteArray(
             R"({"choices":[{"delta":{"content":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000"}}]})")},
        {"utf8",
         QByteArray("{\"choices\":[{\"delta\":{\"content\":\"h\xc3\xa9llo \xe2\x9c\x93 "
                    "\xf0\x9f\x98\x80\"}}]}")},
        {"bad utf8", QByteArray("{\"choices\":[{\"delta\":{\"content\":\"\xc3\x28\"}}]}")},
        {"overlong", QByteArray("{\"choices\":[{\"delta\":{\"content\":\"\xc0\xaf\"}}]}")},
        {"lone surrogate", QByteArray(R"({"choices":[{"delta":{"content":"\udc00"}}]})")},
        {"control char", QByteArray("{\"choices\":[{\"delta\":{\"content\":\"a\x01\"}}]}")},
        {"reasoning both",
         QByteArray(R"({"choices":[{"delta":{"reasoning":"r1","reasoning_content":"r2"}}]})")},
        {"finish", QByteArray(R"({"choices":[{"delta":{},"finish_reason":"stop"}]})")},
        {"usage",
         QByteArray(
             R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}})")},
        {"usage float", QByteArray(R"({"usage":{"prompt_tokens":1.5,"completion_tokens":"3"}})")},
        {"usage huge", QByteArray(R"({"usage":{"prompt_tokens":99999999999}})")},
        {"usage null", QByteArray(R"({"usage":null})")},
        {"usage cached",
         QByteArray(
             R"({"usage":{"prompt_tokens":90,"prompt_tokens_details":{"cached_tokens":64,"audio_tokens":0}}})")},
        {"usage cached float",
         QByteArray(R"({"usage":{"prompt_tokens_details":{"cached_tokens":6.5}}})")},
        {"usage cached twice",
         QByteArray(
             R"({"usage":{"prompt_tokens_details":{"cached_tokens":1,"cached_tokens":2}}})")},
        {"usage details twice",
         QByteArray(
             R"({"usage":{"prompt_tokens_details":{"cached_tokens":1},"prompt_tokens_details":null}})")},
        {"usage details null", QByteArray(R"({"usage":{"prompt_tokens_details":null}})")},
        {"error", QByteArray(R"({"error":{"message":"boom"}})")},
        {"error null", QByteArray(R"({"error":null,"choices":[{"delta":{"content":"x"}}]})")},
        {"tool call",
         QByteArray(
             R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"run_python","arguments":"{\"co"}}]}}]})")},
        {"args object",
         QByteArray(
             R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"code":"x"}}}]}}]})")},
        {"args null",
         QByteArray(
             R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"n","function":{"name":"f","arguments":null}}]}}]})")},
        {"index float",
         QByteArray(R"({"choices":[{"delta":{"tool_calls":[{"index":1.0,"id":"f"}]}}]})")},
        {"index string",
         QByteArray(R"({"choices":[{"delta":{"tool_calls":[{"index":"1","id":"s"}]}}]})")},
        {"index huge",
         QByteArray(
             R"({"choices":[{"delta":{"tool_calls":[{"index":123456789012345678901,"id":"h"}]}}]})")},
        {"index negative",
         QByteArray(R"({"choices":[{"delta":{"tool_calls":[{"index":-1,"id":"neg"}]}}]})")},
        {"no index",
         QByteArray(
             R"({"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"1"}},{"id":"b"}]}}]})")},
        {"non-object call",
         QByteArray(R"({"choices":[{"delta":{"tool_calls":[5,{"index":0,"id":"o"}]}}]})")},
        {"empty calls", QByteArray(R"({"choices":[{"delta":{"tool_calls":[]}}]})")},
        {"calls not array", QByteArray(R"({"choices":[{"delta":{"tool_calls":{"index":0}}}]})")},
        {"duplicate key", QByteArray(R"({"choices":[{"delta":{"content":"a","content":"b"}}]})")},
        {"duplicate choices",
         QByteArray(
             R"({"choices":[{"delta":{"content":"a"}}],"choices":[{"delta":{"content":"b"}}]})")},
        {"choice not object", QByteArray(R"({"choices":[1,{"delta":{"content":"b"}}]})")},
        {"delta not object", QByteArray(R"({"choices":[{"delta":"x","finish_reason":"stop"}]})")},
        {"content number", QByteArray(R"({"choices":[{"delta":{"content":42}}]})")},
        {"content null",
         QByteArray(R"({"choices":[{"delta":{"content":null,"role":"assistant"}}]})")},
        {"deep skip",
         QByteArray(
             R"({"x":[[[{"a":[1,2e5,-0.5E-3,true,false,null,"s"]}]]],"choices":[{"delta":{"content":"ok"}}]})")},
        {"whitespace",
         QByteArray(" \t\r\n{ \"choices\" : [ { \"delta\" : { \"content\" : \"ws\" } } ] } \n")},
        {"trailing garbage", QByteArray(R"({"choices":[]} x)")},
        {"truncated", QByteArray(R"({"choices":[{"delta":{"content":"ab)")},
        {"bad number", QByteArray(R"({"x":01,"choices":[]})")},
        // nlohmann reads these as doubles and calls the chunk invalid when one overflows: found
        // by fuzz_sse, where the fast path had taken such a chunk as good.
        {"number overflows",
         QByteArray(R"({"x":1.2E2222222222,"choices":[{"delta":{"content":"a"}}]})")},
        {"integer overflows a double",
         QByteArray(R"({"x":)" + QByteArray(400, '9')
                    + R"(,"choices":[{"delta":{"content":"a"}}]})")},
        {"negative overflow", QByteArray(R"({"x":-1e309,"choices":[]})")},
        {"long integer in range",
         QByteArray(R"({"x":)" + QByteArray(40, '7')
                    + R"(,"choices":[{"delta":{"content":"a"}}]})")},
        {"underflow", QByteArray(R"({"x":1e-400,"choices":[{"delta":{"content":"u"}}]})")},
        {"edge of a double", QByteArray(R"({"x":1.7976931348623158e308,"choices":[]})")},
        {"not an object", QByteArray(R"([1,2])")},
        {"empty", QByteArray()},
    };
}

QList<QByteArray> wholeStream()
{
    return {
        R"({"choices":[{"delta":{"role":"assistant","content":""}}]})",
        R"({"choices":[{"delta":{"reasoning_content":"Let me think."}}]})",
        R"({"choices":[{"delta":{"content":"I will run it."}}]})",
        R"({"choices":[{"delta":{"tool_calls":[{"index":1,"id":"a","function":{"name":"run_python","arguments":""}}]}}]})",
        R"({"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"code\":\"print(1)\"}"}}]}}]})",
        R"({"choices":[{"delta":{"tool_calls":[{"index":2,"id":"b","function":{"name":"run_python","arguments":"{}"}}]}}]})",
        R"({"choices":[{"delta":{},"finish_reason":"tool_calls"}]})",
        R"({"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20}})",
    };
}

} // namespace Sandcastle::Testing
