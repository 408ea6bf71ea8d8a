"""Sandcastle's matplotlib backend: Agg, remembering the figures the code saved itself.

The kernel saves every figure still open at the end of a run into /workspace/outputs/, so that
a chart shows up without the code saving it. A figure the code already saved to a file with
savefig is in the workspace once; saving it again would show the same chart twice. This
backend marks such figures and the kernel passes them by. Chosen by
MPLBACKEND=module://sandcastle_mpl (the image's environment)."""

import os

from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import FigureCanvasAgg, _BackendAgg


class FigureCanvasSandcastle(FigureCanvasAgg):
    def print_figure(self, filename, *args, **kwargs):
        result = super().print_figure(filename, *args, **kwargs)
        # Saved to a file (not to a buffer, e.g. for base64): it is in the workspace already.
        if isinstance(filename, (str, bytes, os.PathLike)):
            self.figure._sandcastle_saved = True
        return result


@_Backend.export
class _BackendSandcastle(_BackendAgg):
    FigureCanvas = FigureCanvasSandcastle

    @classmethod
    def show(cls, *args, **kwargs):
        """No window to show in: the kernel saves the open figures when the run ends."""
