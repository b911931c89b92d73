%EDGEL_SUBPIXEL  Sub-pixel edge points chained into curves (Canny/Devernay).
%   C = EDGEL_SUBPIXEL(A, SIGMA, HIGH, LOW) returns the curves of sub-pixel edge points of the
%   gray image A (H x W of uint8, uint16, single or double; pixel values as they are) as a
%   1 x M cell array; C{k} is an N x 2 matrix of [x y] in image coordinates (pixel centres at
%   1..W and 1..H, where imshow puts them). SIGMA is the Gaussian blur's standard deviation
%   (0, the default: none); a curve starts at a point whose gradient modulus is at least
%   HIGH and keeps the points of modulus at least LOW (defaults 0). The points equal those of
%   the reference program of von Gioi and Randall (IPOL 2017), bit for bit, in its order.
%
%   [C, CLOSED, G] = EDGEL_SUBPIXEL(...) also returns CLOSED, a 1 x M logical row (a closed
%   curve repeats its first point at its end), and G, a 1 x M cell array of N x 3 matrices
%   [gx gy modulus]: the gradient at each point's pixel (gx along the columns, gy along the
%   rows).
%
%   Example:
%     A = imread('coins.png');                      % or any gray image
%     C = edgel_subpixel(A, 1, 15, 5);
%     imshow(A); hold on
%     for k = 1:numel(C), plot(C{k}(:, 1), C{k}(:, 2), 'r'); end
%
%   The function is the mex file built by scripts/build-octave.sh (Octave) or
%   scripts/build-matlab.sh (MATLAB); this file holds its help.
%
%   See also EDGEL_CANNY.
error('edgel:notBuilt', ['edgel_subpixel is a mex function: build it with ' ...
      'scripts/build-octave.sh or scripts/build-matlab.sh and add build/ to the path']);
