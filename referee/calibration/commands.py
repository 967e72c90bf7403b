"""``referee calibrate camera|table`` and ``referee print charuco|table-markers``.

Light at import: OpenCV is imported inside the command functions.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from .files import CalibrationError


def sub_commands(subparsers, name: str, help: str):
    """The sub-subcommand group ``referee NAME ...``, shared between modules: if another module has
    already registered ``NAME`` with its own subcommands, targets are added to it instead of registering
    ``NAME`` twice (argparse refuses that)."""
    existing = subparsers.choices.get(name)
    if existing is None:
        parser = subparsers.add_parser(name, help=help)
        group = parser.add_subparsers(dest=f"{name}_target", required=True, metavar="TARGET")
        parser._referee_targets = group  # type: ignore[attr-defined]
        return group
    group = getattr(existing, "_referee_targets", None)
    if group is None:
        for action in existing._actions:
            if isinstance(action, argparse._SubParsersAction):
                group = action
                break
    if group is None:
        raise RuntimeError(f"'referee {name}' is registered without subcommands; cannot add targets to it")
    return group


def register(subparsers) -> None:
    cal = sub_commands(subparsers, "calibrate", "calibrate the camera (ChArUco) or the table (corner markers)")

    c = cal.add_parser("camera", help="camera intrinsics from photos of a ChArUco board",
                       description="Calibrate the camera from photos (or live frames) of a printed ChArUco board. "
                                   "Take 10-20 photos with the board filling much of the view, tilted different ways.")
    _board_args(c)
    c.add_argument("images", nargs="*", help="photos of the board")
    c.add_argument("--camera", type=int, metavar="N", help="take the photos from camera N instead")
    c.add_argument("--frames", type=int, default=15, help="with --camera: how many views to collect (default 15)")
    c.add_argument("--out", default="calibration/camera.yaml", help="where to write it (default calibration/camera.yaml)")
    c.add_argument("--json", action="store_true", help="print fx, fy, cx, cy, distortion and rms as one JSON object")
    c.set_defaults(func=_calibrate_camera)

    t = cal.add_parser("table", help="image -> table-millimetre homography from the four corner markers",
                       description="Find the four ArUco markers at the corners of the playing area "
                                   "(`referee print table-markers`) and save the image -> table mm homography.")
    t.add_argument("image", nargs="?", help="a photo from the camera in its playing position")
    t.add_argument("--camera", type=int, metavar="N", help="take the picture from camera N instead")
    t.add_argument("--intrinsics", metavar="CAMERA.yaml", help="the camera calibration, to take lens distortion out")
    _marker_args(t)
    t.add_argument("--out", default="calibration/table.yaml", help="where to write it (default calibration/table.yaml)")
    t.add_argument("--preview", metavar="PNG", help="also write the table seen from above (1 mm a pixel, markers included) to check it")
    t.add_argument("--json", action="store_true", help="print the result as one JSON object")
    t.set_defaults(func=_calibrate_table)

    pr = sub_commands(subparsers, "print", "write printable sheets and decks (PDF)")
    pc = pr.add_parser("charuco", help="the ChArUco calibration board at true size")
    _board_args(pc)
    _paper_args(pc)
    pc.add_argument("--out", default="calibration/charuco.pdf", help="a .pdf or .png (default calibration/charuco.pdf)")
    pc.set_defaults(func=_print_charuco)

    pm = pr.add_parser("table-markers", help="the four corner markers of the playing area, one a page")
    _marker_args(pm)
    _paper_args(pm)
    pm.add_argument("--out", default="calibration/table-markers.pdf", help="a .pdf or .png (default calibration/table-markers.pdf)")
    pm.set_defaults(func=_print_table_markers)


def _board_args(p) -> None:
    p.add_argument("--charuco", default="5x7", metavar="COLSxROWS", help="squares across x down (default 5x7)")
    p.add_argument("--square", type=float, default=0.04, metavar="M", help="square side in metres (default 0.04)")
    p.add_argument("--marker", type=float, default=0.02, metavar="M", help="marker side in metres (default 0.02)")
    p.add_argument("--dict", default="DICT_6X6_250", metavar="NAME", help="ArUco dictionary (default DICT_6X6_250)")
    p.add_argument("--legacy", action="store_true", help="a board printed by OpenCV before 4.6 (matters for an even row count)")


def _marker_args(p) -> None:
    p.add_argument("--width", type=float, default=1000.0, help="playing area width between marker centres, mm (default 1000)")
    p.add_argument("--height", type=float, default=1000.0, help="playing area height between marker centres, mm (default 1000)")
    p.add_argument("--marker-size", type=float, default=60.0, help="printed marker side, mm (default 60)")
    p.add_argument("--dict", default="DICT_4X4_50", metavar="NAME", help="ArUco dictionary (default DICT_4X4_50)")
    p.add_argument("--ids", default="0,1,2,3", help="marker ids at the top-left, top-right, bottom-right, bottom-left corners")


def _paper_args(p) -> None:
    p.add_argument("--paper", default="a4", choices=["a4", "a3", "letter"])
    p.add_argument("--dpi", type=int, default=300)


def _fail(command: str, e: Exception) -> int:
    print(f"referee {command}: {e}", file=sys.stderr)
    return 2


def _spec(args):
    from .camera import CharucoSpec, parse_grid

    cols, rows = parse_grid(args.charuco)
    return CharucoSpec(cols, rows, args.square, args.marker, args.dict, args.legacy)


def _markers(args):
    from .table import TableMarkers

    try:
        ids = tuple(int(x) for x in args.ids.split(","))
    except ValueError:
        ids = ()
    if len(ids) != 4:
        raise CalibrationError("", f"--ids needs four marker ids separated by commas, got {args.ids!r}")
    return TableMarkers(args.width, args.height, args.marker_size, args.dict, ids)


def _open_camera(index: int):
    import cv2

    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        raise CalibrationError(f"camera {index}", "cannot open it (no such camera, or it is busy)")
    return cap


def _camera_views(index: int, spec, wanted: int, timeout_s: float = 120.0):
    """Frames from a live camera in which the board is well seen, at least a second apart."""
    from .camera import MIN_CORNERS, detect_charuco

    cap = _open_camera(index)
    board, views, last, start = spec.board(), [], 0.0, time.monotonic()
    try:
        while len(views) < wanted and time.monotonic() - start < timeout_s:
            ok, frame = cap.read()
            if not ok:
                raise CalibrationError(f"camera {index}", "stopped giving frames")
            if time.monotonic() - last < 1.0:
                continue
            obj, _ = detect_charuco(frame, spec, board)
            if len(obj) >= MIN_CORNERS:
                last = time.monotonic()
                views.append((f"camera {index} frame {len(views) + 1}", frame))
                print(f"view {len(views)}/{wanted}: {len(obj)} corners; move the board", file=sys.stderr)
    finally:
        cap.release()
    return views


def _calibrate_camera(args) -> int:
    try:
        from .camera import calibrate_from_images, read_images

        spec = _spec(args)
        if bool(args.images) == (args.camera is not None):
            raise CalibrationError("", "give either photos of the board or --camera N (one of them)")
        images = read_images(args.images) if args.images else _camera_views(args.camera, spec, args.frames)
        result = calibrate_from_images(images, spec)
        path = result.save(args.out)
    except CalibrationError as e:
        return _fail("calibrate camera", e)
    if args.json:
        print(json.dumps(result.summary() | {"views": len([v for v in result.views if v.used]), "out": str(path)}))
        return 0
    for v in result.views:
        print(f"  {v.name}: {v.corners} corners{'' if v.used else ' - not used: ' + v.reason}")
    s = result.summary()
    print(f"fx {s['fx']:.2f}  fy {s['fy']:.2f}  cx {s['cx']:.2f}  cy {s['cy']:.2f}  rms {s['rms_px']:.3f} px")
    print("distortion (k1 k2 p1 p2 k3): " + " ".join(f"{d:.5g}" for d in s["distortion"]))
    print(f"wrote {path}")
    return 0


def _calibrate_table(args) -> int:
    try:
        import cv2

        from .camera import CameraIntrinsics
        from .table import calibrate_table, find_markers

        markers = _markers(args)
        if bool(args.image) == (args.camera is not None):
            raise CalibrationError("", "give either a photo of the table or --camera N (one of them)")
        intr = CameraIntrinsics.load(args.intrinsics) if args.intrinsics else None
        if args.image:
            image, name = cv2.imread(args.image), args.image
            if image is None:
                raise CalibrationError(args.image, "cannot read it as an image (missing file or unknown format)")
        else:
            cap, name = _open_camera(args.camera), f"camera {args.camera}"
            try:
                # the first frames of a webcam are often dark; try for a few seconds for all four markers
                image, deadline = None, time.monotonic() + 5.0
                while time.monotonic() < deadline:
                    ok, frame = cap.read()
                    if ok:
                        image = frame
                        if not find_markers(frame, markers).missing:
                            break
            finally:
                cap.release()
            if image is None:
                raise CalibrationError(name, "gave no frames")
        table = calibrate_table(image, markers, intr, name)
        table.camera_file = args.intrinsics
        if args.preview:
            from .mapper import TableMapper

            # the playing area and the whole of each corner marker, 1 mm a pixel
            m = markers.size_mm
            box = (-markers.width_mm / 2 - m, -markers.height_mm / 2 - m, markers.width_mm / 2 + m, markers.height_mm / 2 + m)
            try:
                written = cv2.imwrite(args.preview, TableMapper(table).rectify(image, 1.0, box))
            except cv2.error:
                written = False
            if not written:
                raise CalibrationError(args.preview, "cannot write the preview (is it a .png or .jpg path in a folder that exists?)")
        path = table.save(args.out)
    except CalibrationError as e:
        return _fail("calibrate table", e)
    out = {"homography": table.homography.tolist(), "residual_mm": round(table.residual_mm, 3),
           "image_size": list(table.image_size), "undistorted": intr is not None, "out": str(path)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"found the four corner markers in {name}; marker corners fit to {table.residual_mm:.2f} mm RMS")
        print(f"playing area {markers.width_mm:g} x {markers.height_mm:g} mm{'; lens distortion taken out' if intr else ''}")
        print(f"wrote {path}" + (f" and {args.preview}" if args.preview else ""))
    return 0


def _print_charuco(args) -> int:
    try:
        from .sheets import charuco_sheet, write_pages

        paths = write_pages([charuco_sheet(_spec(args), args.paper, args.dpi)], args.out, args.dpi)
    except CalibrationError as e:
        return _fail("print charuco", e)
    print("wrote " + ", ".join(map(str, paths)) + ": print at 100 % (no fit-to-page) and check a square's size")
    return 0


def _print_table_markers(args) -> int:
    try:
        from .sheets import table_marker_pages, write_pages

        markers = _markers(args)
        paths = write_pages(table_marker_pages(markers, args.paper, args.dpi), args.out, args.dpi)
    except CalibrationError as e:
        return _fail("print table-markers", e)
    print("wrote " + ", ".join(map(str, paths)) + f": four markers of {markers.size_mm:g} mm, one a page; print at 100 %")
    return 0
