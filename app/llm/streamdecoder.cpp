#include "streamdecoder.h"

namespace Sandcastle {

ModelError StreamDecoder::notJson(const QByteArray &data)
{
    return {QStringLiteral("bad_stream"),
            QStringLiteral("The model sent a stream event that is not JSON: ")
                + QString::fromUtf8(data.left(200)),
            false};
}

} // namespace Sandcastle
