#pragma once

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>

// Checks a model's every signal and answer against QAbstractItemModel's contract for as long as
// the model lives (Qt's tester, parented to the model): any violation stops the test at once.
inline void checkModel(QAbstractItemModel *model)
{
    new QAbstractItemModelTester(
        model, QAbstractItemModelTester::FailureReportingMode::Fatal, model);
}
