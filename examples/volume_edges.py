"""ITK's 3-D Canny on a real MRI scan, with its voxel size, equal to ITK's filter; three
orthogonal slices with the edges drawn over them.

    python3 examples/volume_edges.py [--figure volume-edges.png]   (pip install . nibabel itk)

The scan is nibabel's own test volume (anatomical.nii: 33x41x25 voxels of 2 mm, int16), which
the nibabel wheel carries: nothing is downloaded.
"""
import sys

import nibabel as nib
import numpy as np
from nibabel.testing import data_path

import edgel

scan = nib.load(data_path / "anatomical.nii")
volume = np.ascontiguousarray(scan.get_fdata(dtype=np.float32).T)  # (z, y, x), as ITK reads it
spacing = tuple(float(s) for s in scan.header.get_zooms()[::-1])  # mm, in the same order
edges = edgel.canny_itk(volume, 4.0, 0.01, 2000.0, 1000.0, spacing=spacing)  # variance in mm^2
print(f"{volume.shape} voxels of {spacing} mm: {int(edges.sum())} edge voxels")

try:
    import itk
except ImportError:
    itk = None
if itk is not None:
    image = itk.image_from_array(volume)
    image.SetSpacing(spacing[::-1])
    f3 = itk.Image[itk.F, 3]
    f = itk.CannyEdgeDetectionImageFilter[f3, f3].New(
        Input=image, Variance=[4.0] * 3, MaximumError=[0.01] * 3, UpperThreshold=2000.0,
        LowerThreshold=1000.0)
    f.Update()
    assert np.array_equal(itk.array_from_image(f.GetOutput()), edges)
    print("identical to ITK's CannyEdgeDetectionImageFilter<Image<float, 3>>")

if "--figure" in sys.argv:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    z, y, x = (n // 2 for n in volume.shape)
    views = [("axial (z = %d)" % z, volume[z], edges[z], spacing[1] / spacing[2]),
             ("coronal (y = %d)" % y, volume[:, y], edges[:, y], spacing[0] / spacing[2]),
             ("sagittal (x = %d)" % x, volume[:, :, x], edges[:, :, x], spacing[0] / spacing[1])]
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.6))
    for ax, (title, image, edge, aspect) in zip(axes, views):
        ax.imshow(image, cmap="gray", origin="lower", aspect=aspect)
        overlay = np.zeros(edge.shape + (4,))
        overlay[edge > 0] = (1.0, 0.2, 0.1, 1.0)
        ax.imshow(overlay, origin="lower", aspect=aspect, interpolation="nearest")
        ax.set_title(title)
        ax.axis("off")
    fig.suptitle("edgel.canny_itk on a 3-D MRI (variance 4 mm², 2 mm voxels): edges in red")
    fig.tight_layout()
    fig.savefig(sys.argv[sys.argv.index("--figure") + 1], dpi=110)
