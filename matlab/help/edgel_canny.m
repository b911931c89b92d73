%EDGEL_CANNY  Canny edges, byte-identical to OpenCV's cv2.Canny.
%   E = EDGEL_CANNY(A, LOW, HIGH) returns the Canny edges of the uint8 image A (H x W gray,
%   or H x W x 3 / x 4 RGB(A)) with hysteresis thresholds LOW and HIGH, as a uint8 H x W
%   image with 255 on edges and 0 elsewhere. Colour is converted to luma first (as
%   cv2.cvtColor RGB2GRAY).
%
%   E = EDGEL_CANNY(A, LOW, HIGH, Name, Value, ...) with names (case-insensitive):
%     'Aperture'  3 (default), 5, 7 or 'scharr' (needs 'L2', true)
%     'L2'        false (default): |dx|+|dy|; true: sqrt(dx^2+dy^2)
%     'Blur'      [] (default), a Gaussian sigma (= cv2.GaussianBlur), or '5x5'
%     'Gray'      'luma' (default) or 'max-channel' (OpenCV's multi-channel Canny)
%     'Backend'   'auto' (default: the GPU when present), 'cpu' or 'cuda'
%     'Threads'   CPU threads, 0 = all cores (default)
%
%   Example:
%     A = uint8(kron(magic(8), ones(8)) * 4);
%     E = edgel_canny(A, 50, 150, 'Aperture', 5, 'L2', true, 'Blur', 1.4);
%
%   The function is the mex file built by scripts/build-octave.sh (Octave) or
%   scripts/build-matlab.sh (MATLAB); this file holds its help. A context is kept between
%   calls of the same Backend and Threads.
%
%   See also CudaEdge, CudaEdgeRGB.
error('edgel:notBuilt', ['edgel_canny is a mex function: build it with ' ...
      'scripts/build-octave.sh or scripts/build-matlab.sh and add build/ to the path']);
