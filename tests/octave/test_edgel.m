% Octave tests of the mex gateway (edgel_canny) and the seed's interface (CudaEdgeRGB,
% CudaEdge): results equal to the edgel command's on the sample images, column-major
% layout handled, errors raised as Octave errors. Run by scripts/run-tests.sh as
%   octave --no-gui --no-history --eval "test_edgel('BUILD_DIR', 'SAMPLES_DIR')"
function test_edgel(build, samples)
  addpath(build);
  addpath(fullfile(fileparts(mfilename('fullpath')), '..', '..', 'matlab'));
  cli = fullfile(build, 'edgel');
  work = tempname(); mkdir(work);
  passed = 0; failed = 0;
  function check(ok, what)
    if ok
      passed = passed + 1;
    else
      failed = failed + 1;
      printf('FAILED: %s\n', what);
    end
  end
  function img = read_pnm(path)  % binary P5/P6, 8-bit
    f = fopen(path, 'rb');
    magic = fgetl(f);
    dims = fscanf(f, '%d', 3);
    fread(f, 1, 'uint8');  % the single whitespace byte
    cn = 1 + 2 * strcmp(magic, 'P6');
    data = fread(f, Inf, 'uint8=>uint8');
    fclose(f);
    img = permute(reshape(data, [cn, dims(1), dims(2)]), [3, 2, 1]);
  end
  function e = cli_edges(src, flags)
    out = fullfile(work, 'ref.pgm');
    status = system(sprintf('"%s" detect "%s" -o "%s" -q %s', cli, src, out, flags));
    if status ~= 0
      error('edgel detect failed on %s', src);
    end
    e = read_pnm(out);
  end

  for name = {'chelsea.png', 'coffee.png', 'camera.png'}
    src = fullfile(samples, name{1});
    pix = fullfile(work, 'pixels.pnm');  % the decoded pixels, via the command
    system(sprintf('"%s" detect "%s" -o "%s" --stage smoothed --gray max-channel', cli, src, pix));
    A = read_pnm(pix);
    check(isa(A, 'uint8') && any(size(A, 3) == [1, 3]), [name{1} ' read']);
    check(isequal(edgel_canny(A, 50, 150), cli_edges(src, '')), [name{1} ' default']);
    check(isequal(edgel_canny(A, 30, 90, 'Aperture', 5, 'L2', true), ...
                  cli_edges(src, '--low 30 --high 90 --aperture 5 --l2')), [name{1} ' aperture 5 L2']);
    check(isequal(edgel_canny(A, 40, 120, 'Blur', 1.4, 'Backend', 'cpu', 'Threads', 1), ...
                  cli_edges(src, '--low 40 --high 120 --blur 1.4')), [name{1} ' blur']);
    check(isequal(edgel_canny(A, 100, 300, 'Aperture', 'scharr', 'L2', true), ...
                  cli_edges(src, '--low 100 --high 300 --aperture scharr --l2')), [name{1} ' scharr']);
    if size(A, 3) == 3
      check(isequal(edgel_canny(A, 60, 150, 'Gray', 'max-channel'), ...
                    cli_edges(src, '--low 60 --gray max-channel')), [name{1} ' max-channel']);
      C = CudaEdgeRGB(A, 40, 120, 5);
      check(isequal(C, cli_edges(src, '--low 40 --high 120')), [name{1} ' CudaEdgeRGB']);
      check(isequal(size(C), [size(A, 1), size(A, 2)]) && isa(C, 'uint8'), [name{1} ' CudaEdgeRGB shape']);
    else
      check(isequal(CudaEdge(A, 40, 120, 5), cli_edges(src, '--low 40 --high 120')), [name{1} ' CudaEdge']);
    end
  end

  % Column-major layout: the transposed image's edges, through the command on a transposed file.
  A = read_pnm(fullfile(work, 'pixels.pnm'));
  T = A';
  f = fopen(fullfile(work, 'T.pgm'), 'wb');
  fprintf(f, 'P5\n%d %d\n255\n', size(T, 2), size(T, 1));
  fwrite(f, T', 'uint8');
  fclose(f);
  check(isequal(edgel_canny(T, 50, 150), cli_edges(fullfile(work, 'T.pgm'), '')), 'transposed image');

  % Sub-pixel curves: the command's JSON, one-based, on the camera photograph (gray) and on
  % its transposed file. (Octave's jsondecode may round 17 digits to a neighbouring double:
  % the gateway's layout is checked here to 1e-9, its doubles by the library's own tests.)
  function ok = near(a, b)
    ok = isequal(size(a), size(b)) && max(abs(a(:) - b(:))) <= 1e-9;
  end
  for name = {'camera.png', 'T.pgm'}
    src = fullfile(samples, name{1});
    if strcmp(name{1}, 'T.pgm')
      src = fullfile(work, 'T.pgm');
    end
    pix = fullfile(work, 'gray.pgm');
    system(sprintf('"%s" detect "%s" -o "%s" --stage gray', cli, src, pix));
    G0 = read_pnm(pix);
    json = fullfile(work, 'c.json');
    system(sprintf('"%s" contours "%s" -o "%s" -q --sigma 1 --high 15 --low 5', cli, pix, json));
    want = jsondecode(fileread(json));
    [C, closed, G] = edgel_subpixel(G0, 1, 15, 5);
    same = numel(C) == numel(want.curves) && numel(C) > 10;
    for k = 1:min(numel(C), numel(want.curves))
      w = want.curves(k);
      if iscell(want.curves)
        w = want.curves{k};
      end
      same = same && near(C{k}, [w.x(:), w.y(:)] + 1) && closed(k) == w.closed && ...
             near(G{k}, [w.gx(:), w.gy(:), w.modulus(:)]);
    end
    check(same, [name{1} ' edgel_subpixel = edgel contours']);
    check(isequal(edgel_subpixel(double(G0), 1, 15, 5), C) && ...
          isequal(edgel_subpixel(single(G0), 1, 15, 5), C), [name{1} ' subpixel types']);
  end
  check(isempty(edgel_subpixel(uint8(zeros(4, 9)))), 'subpixel tiny image');

  % Errors become Octave errors with an identifier.
  function expect_error(fn, id, what)
    try
      fn();
      check(false, [what ': no error']);
    catch err
      check(strcmp(err.identifier, id), [what ': got ' err.identifier ' (' err.message ')']);
    end
  end
  expect_error(@() edgel_canny(double(A), 50, 150), 'edgel:badImage', 'double input');
  expect_error(@() edgel_canny(A, NaN, 150), 'edgel:failed', 'NaN threshold');
  expect_error(@() edgel_canny(A, 50, 150, 'Aperture', 4), 'edgel:failed', 'aperture 4');
  expect_error(@() edgel_canny(A, 50, 150, 'Colour', 1), 'edgel:badArgument', 'unknown option');
  expect_error(@() edgel_canny(A, 50), 'edgel:usage', 'missing threshold');
  expect_error(@() CudaEdgeRGB(A, 50, 150, 1), 'edgel:badImage', 'CudaEdgeRGB on gray');
  expect_error(@() edgel_subpixel(int16(A)), 'edgel:badImage', 'subpixel int16');
  expect_error(@() edgel_subpixel(A, -1), 'edgel:failed', 'subpixel negative sigma');
  expect_error(@() edgel_subpixel(A, [1 2]), 'edgel:badArgument', 'subpixel sigma vector');
  expect_error(@() edgel_subpixel(), 'edgel:usage', 'subpixel no image');

  confirm_recursive_rmdir(false, 'local');
  rmdir(work, 's');
  % The help text ships beside the mex; a kept context serves calls of different options.
  text = evalc('help edgel_canny');
  check(~isempty(strfind(text, 'cv2.Canny')) && ~isempty(strfind(text, 'Aperture')), ...
        'help edgel_canny prints the help of matlab/help/edgel_canny.m');
  text = evalc('help edgel_subpixel');
  check(~isempty(strfind(text, 'Canny/Devernay')), 'help edgel_subpixel');
  A = uint8(kron(reshape(mod((1:64) * 37, 64), 8, 8), ones(8)) * 4);  % ('magic' is a local)
  E1 = edgel_canny(A, 50, 150);
  E2 = edgel_canny(A, 50, 150, 'Backend', 'cpu', 'Threads', 1);
  E3 = edgel_canny(A, 50, 150);
  check(isequal(E1, E2) && isequal(E1, E3) && nnz(E1) > 0, 'results across kept contexts');
  printf('octave: %d passed, %d failed\n', passed, failed);
  if failed > 0
    exit(1);
  end
end
