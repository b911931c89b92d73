function C = CudaEdgeRGB(A, thresL, thresH, hyster)
% C = CudaEdgeRGB(A, thresL, thresH, hyster)
%
% Canny edges of an RGB uint8 image A (H x W x 3), the interface of Luo and Duraiswami's
% CUDA Canny (2008). Runs on the GPU when one is present, else on the CPU; the result is the
% same (equal to OpenCV's cv2.Canny of the luma image). C is uint8 H x W, 255 on edges.
% thresL and thresH are the hysteresis thresholds on |dx|+|dy| of the 3x3 Sobel gradient.
% hyster is accepted for compatibility and ignored: edgel's hysteresis is exact (every weak
% pixel connected to a strong one), so it needs no iteration count.
  if nargin < 3
    error('edgel:usage', 'usage: C = CudaEdgeRGB(A, thresL, thresH, hyster)');
  end
  if ndims(A) ~= 3 || size(A, 3) ~= 3
    error('edgel:badImage', 'CudaEdgeRGB expects an H x W x 3 RGB image (CudaEdge takes gray)');
  end
  C = edgel_canny(A, thresL, thresH, 'Gray', 'luma', 'Backend', 'auto');
end
