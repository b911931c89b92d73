function C = CudaEdge(A, thresL, thresH, hyster)
% C = CudaEdge(A, thresL, thresH, hyster)
%
% Canny edges of a gray uint8 image A (H x W), the grayscale twin of CudaEdgeRGB: GPU when
% present, else CPU, equal to OpenCV's cv2.Canny(A, thresL, thresH). C is uint8, 255 on
% edges. hyster is accepted for compatibility and ignored (edgel's hysteresis is exact).
  if nargin < 3
    error('edgel:usage', 'usage: C = CudaEdge(A, thresL, thresH, hyster)');
  end
  if ~ismatrix(A)
    error('edgel:badImage', 'CudaEdge expects an H x W gray image (CudaEdgeRGB takes RGB)');
  end
  C = edgel_canny(A, thresL, thresH, 'Backend', 'auto');
end
