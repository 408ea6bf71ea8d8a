#include "executionresult.h"

namespace Sandcastle {

QString ExecutionResult::statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return QStringLiteral("ok");
    case Status::Error:
        return QStringLiteral("error");
    case Status::Timeout:
        return QStringLiteral("timeout");
    case Status::OutOfMemory:
        return QStringLiteral("out_of_memory");
    case Status::Killed:
        return QStringLiteral("killed");
    case Status::EngineError:
        return QStringLiteral("engine_error");
    }
    return QStringLiteral("error");
}

} // namespace Sandcastle
