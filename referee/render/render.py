"""Draw a Scene through a Camera: table texture, cards with soft shadows, glare, arms with shadows,
uneven light, lens distortion, blur, sensor noise and JPEG artefacts. Returns the image and, for every
card, its four corners in the image, its visible pixels (an object-id map is drawn alongside the
colours) and the box and class used for the YOLO label.

Box rule (one rule for every label): the box is the axis-aligned bounding box of the card's *visible*
pixels in the final image: parts covered by other cards or by arms, and parts outside the frame, are
excluded. A card is labelled only when at least ``MIN_VISIBLE`` of its area is visible and its visible
box is at least ``MIN_BOX_PX`` wide and high; every card, labelled or not, is in the sidecar.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import Camera
from .faces import FaceCache
from .scene import Scene
from .table import TABLE_MM

MIN_VISIBLE = 0.25  # below this a card is a sliver: the edge of a pile, a strip of a fan
MIN_BOX_PX = 6
TABLE_ID, ARM_ID = -1, -2


@dataclass
class Effects:
    """Photographic effects, drawn at random by ``random_effects`` or all off (``Effects()``)."""

    light_gradient: float = 0.0      # 0..1, strength of uneven light
    light_dir_deg: float = 0.0
    vignette: float = 0.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains (colour temperature)
    exposure: float = 1.0
    card_shadow: float = 0.0         # 0..1, darkness of the soft shadow round each card
    glare: float = 0.0               # 0..1, specular highlight on glossy cards
    glare_centre: tuple[float, float] = (0.5, 0.5)
    glare_radius: float = 0.2        # fraction of the image width
    arm_shadow: float = 0.0
    shadow_offset_mm: tuple[float, float] = (0.0, 0.0)
    focus_blur: float = 0.0          # Gaussian sigma, px
    motion_blur: int = 0             # kernel length, px
    motion_angle_deg: float = 0.0
    noise: float = 0.0               # sensor noise sigma (0..255 scale)
    jpeg_quality: int = 0            # 0 = no extra JPEG round trip

    def to_json(self) -> dict:
        return dict(self.__dict__)


def random_effects(rng: np.random.Generator) -> Effects:
    return Effects(
        light_gradient=float(rng.uniform(0, 0.5)), light_dir_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.4)),
        tint=tuple(float(v) for v in (rng.uniform(0.85, 1.1), rng.uniform(0.95, 1.05), rng.uniform(0.9, 1.12))),
        exposure=float(rng.uniform(0.7, 1.2)),
        card_shadow=float(rng.uniform(0.1, 0.5)),
        glare=float(rng.uniform(0.2, 0.7)) if rng.random() < 0.45 else 0.0,
        glare_centre=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        glare_radius=float(rng.uniform(0.05, 0.25)),
        arm_shadow=float(rng.uniform(0.2, 0.55)),
        shadow_offset_mm=(float(rng.normal(0, 40)), float(rng.normal(0, 40))),
        focus_blur=float(rng.uniform(0, 1.4)) if rng.random() < 0.6 else 0.0,
        motion_blur=int(rng.integers(3, 9)) if rng.random() < 0.15 else 0,
        motion_angle_deg=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(1, 7)),
        jpeg_quality=int(rng.integers(35, 95)) if rng.random() < 0.7 else 0,
    )


@dataclass
class CardAnnotation:
    index: int                    # position in scene.cards (the draw order)
    label: str                    # card code, or "back" when face down
    corners: np.ndarray           # (4, 2) final-image corners TL, TR, BR, BL of the upright face
    visible_px: int
    area_px: float
    bbox: tuple[float, float, float, float] | None   # visible box x0, y0, x1, y1 (pixel edges)
    labelled: bool = field(default=False)

    @property
    def visible_fraction(self) -> float:
        return float(min(1.0, self.visible_px / self.area_px)) if self.area_px > 0 else 0.0


def _polygon_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def _face_to_table(card, face_w: int, face_h: int) -> np.ndarray:
    """3x3 affine: face pixel (x right, y down as printed) -> table mm."""
    tl, tr, br, bl = card.corners_mm()
    ex = (tr - tl) / face_w
    ey = (bl - tl) / face_h
    return np.array([[ex[0], ey[0], tl[0]], [ex[1], ey[1], tl[1]], [0, 0, 1]])


def _table_mask(table, size: int) -> np.ndarray:
    """The table top in texture pixels (255 on the table)."""
    half = np.arange(size, dtype=np.float32) * TABLE_MM / size - TABLE_MM / 2
    x, y = np.meshgrid(half, -half)
    return (table.contains(x, y) * 255).astype(np.uint8)


def _rect_to_table(centre, angle_deg: float, size_mm, w_px: int, h_px: int) -> np.ndarray:
    """3x3 affine: pixel of an upright w x h image -> table mm, for a rectangle at ``centre`` turned ``angle_deg``."""
    a = math.radians(angle_deg)
    right, up = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    tl = np.array(centre) - right * size_mm[0] / 2 + up * size_mm[1] / 2
    ex, ey = right * size_mm[0] / w_px, -up * size_mm[1] / h_px
    return np.array([[ex[0], ey[0], tl[0]], [ex[1], ey[1], tl[1]], [0, 0, 1]])


def _paste(canvas: np.ndarray, ids: np.ndarray | None, img: np.ndarray, alpha: np.ndarray, M: np.ndarray,
           obj_id: int, shadow: float) -> None:
    """Warp ``img`` by ``M`` (its pixels -> canvas pixels) onto the canvas, only in its bounding box."""
    h, w = img.shape[:2]
    Hp, Wp = canvas.shape[:2]
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), M)[0]
    m = 4  # room for the soft shadow
    x0, y0 = max(int(math.floor(quad[:, 0].min())) - m, 0), max(int(math.floor(quad[:, 1].min())) - m, 0)
    x1, y1 = min(int(math.ceil(quad[:, 0].max())) + m, Wp), min(int(math.ceil(quad[:, 1].max())) + m, Hp)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ M
    size = (x1 - x0, y1 - y0)
    a = cv2.warpPerspective(alpha, T, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    f = cv2.warpPerspective(img, T, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    roi = canvas[y0:y1, x0:x1]
    if shadow > 0:
        sh = cv2.GaussianBlur(a, (0, 0), 1.5) * min(shadow, 0.9)
        roi *= (1 - sh)[..., None]
    roi += (f - roi) * a[..., None]
    if ids is not None:
        ids[y0:y1, x0:x1][a > 0.5] = obj_id


def render_scene(scene: Scene, camera: Camera, faces: FaceCache, texture: np.ndarray,
                 effects: Effects | None = None, rng: np.random.Generator | None = None,
                 jpeg_roundtrip: bool = True, floor: np.ndarray | None = None,
                 underlay=None, overlay=None) -> tuple[np.ndarray, list[CardAnnotation], np.ndarray]:
    """The final BGR image, one annotation per card (scene order) and the object-id map
    (card index, -1 table, -2 arm) of the final image. ``floor`` is the texture seen beyond a table
    with an edge (a plain grey when not given). ``underlay`` and ``overlay`` draw more (a board under
    the cards, pieces on it): called as ``f(canvas, ids, camera, pad, effects)`` before the cards and
    after them (ids of such objects must not collide with card indices)."""
    fx = effects or Effects()
    rng = rng or np.random.default_rng(0)
    W, H = camera.width, camera.height
    mapx, mapy, pad = camera.undistort_maps()
    Wp, Hp = W + 2 * pad, H + 2 * pad
    Hmm = camera.homography(pad)

    # table: texture pixel -> mm -> padded undistorted render
    ts = texture.shape[0]
    S = np.array([[TABLE_MM / ts, 0, -TABLE_MM / 2], [0, -TABLE_MM / ts, TABLE_MM / 2], [0, 0, 1]])
    canvas = cv2.warpPerspective(texture, Hmm @ S, (Wp, Hp), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    canvas = canvas.astype(np.float32)
    table = scene.table
    if table.shape != "none":
        # the floor lies floor_mm below the table: its own homography, darker and out of focus
        Kp = camera.K.copy()
        Kp[:2, 2] += pad
        Hf = Kp @ np.column_stack([camera.R[:, 0], camera.R[:, 1], camera.t - table.floor_mm * camera.R[:, 2]])
        fl_tex = floor if floor is not None else np.full_like(texture, 90)
        fs = fl_tex.shape[0]
        Sf = np.array([[3 * TABLE_MM / fs, 0, -1.5 * TABLE_MM], [0, -3 * TABLE_MM / fs, 1.5 * TABLE_MM], [0, 0, 1]])
        fl = cv2.warpPerspective(fl_tex, Hf @ Sf, (Wp, Hp), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        fl = cv2.GaussianBlur(fl, (0, 0), 2.0).astype(np.float32) * 0.6
        shape = _table_mask(table, ts)
        m = cv2.warpPerspective(shape, Hmm @ S, (Wp, Hp), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        m = m.astype(np.float32)[..., None] / 255
        canvas = canvas * m + fl * (1 - m)
    ids = np.full((Hp, Wp), TABLE_ID, np.int16)

    if scene.props:
        from .props import prop_image

        for prop in scene.props:
            pimg, palpha = prop_image(prop)
            ph, pw = pimg.shape[:2]
            A = _rect_to_table(prop.centre, prop.angle_deg, prop.size_mm, pw, ph)
            _paste(canvas, None, pimg, palpha, Hmm @ A, 0, fx.card_shadow * 1.5)

    if underlay is not None:
        underlay(canvas, ids, camera, pad, fx)
    for i, card in enumerate(scene.cards):
        face, alpha = faces.get(card.style, card.label)
        fh, fw = face.shape[:2]
        _paste(canvas, ids, face, alpha, Hmm @ _face_to_table(card, fw, fh), i, fx.card_shadow)

    if fx.glare > 0:  # a lamp's reflection shows on the glossy cards only
        yy, xx = np.mgrid[0:Hp, 0:Wp].astype(np.float32)
        gx, gy = fx.glare_centre[0] * W + pad, fx.glare_centre[1] * H + pad
        r = fx.glare_radius * W
        g = np.exp(-((xx - gx) ** 2 + ((yy - gy) * 1.4) ** 2) / (2 * r * r)) * fx.glare
        g *= (ids >= 0)
        canvas += (255 - canvas) * g[..., None]

    if overlay is not None:
        overlay(canvas, ids, camera, pad, fx)
    for arm in scene.arms:
        pieces = arm.polygons_mm()
        if fx.arm_shadow > 0:  # the shadow falls on the table, offset by the light direction
            shadow = np.zeros((Hp, Wp), np.float32)
            off = np.array(fx.shadow_offset_mm) * (arm.lift_mm / 100)
            for poly, _ in pieces:
                pts = camera.project_undistorted(poly + off, pad)
                cv2.fillPoly(shadow, [np.round(pts * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
            blur = 2 + arm.lift_mm / 15
            shadow = cv2.GaussianBlur(shadow, (0, 0), blur) * fx.arm_shadow
            canvas *= (1 - shadow)[..., None]
        armmask = np.zeros((Hp, Wp), np.uint8)
        layer = canvas.copy()
        for poly, colour in pieces:
            c = np.array(colour, np.float32)
            # a darker rim and a lighter core read as a rounded limb rather than a flat cut-out
            core = poly.mean(0) + (poly - poly.mean(0)) * 0.7
            for shape, gain in ((poly, 0.78), (core, 1.06)):
                pts3 = np.concatenate([shape, np.full((len(shape), 1), arm.lift_mm)], axis=1)
                pts = np.round(camera.project_undistorted(pts3, pad) * 4).astype(np.int32)
                cv2.fillPoly(layer, [pts], tuple(float(min(v * gain, 255)) for v in c), cv2.LINE_AA, 2)
                if shape is poly:
                    cv2.fillPoly(armmask, [pts], 1, 0, 2)
        soft = cv2.GaussianBlur(layer, (0, 0), 2.0)  # skin and cloth have no hard inner edges
        m = cv2.GaussianBlur(armmask.astype(np.float32), (0, 0), 0.8)[..., None]
        canvas += (soft - canvas) * m
        ids[armmask > 0] = ARM_ID

    # uneven light: a gradient across the image, a vignette and the colour of the light
    small_w, small_h = 32, max(2, 32 * Hp // Wp)
    yy, xx = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    u, v = xx / (small_w - 1) - 0.5, yy / (small_h - 1) - 0.5
    ang = math.radians(fx.light_dir_deg)
    light = fx.exposure * (1 + fx.light_gradient * (u * math.cos(ang) + v * math.sin(ang)) - fx.vignette * (u * u + v * v) * 2)
    light = cv2.resize(light, (Wp, Hp), interpolation=cv2.INTER_LINEAR)
    canvas *= light[..., None] * np.array(fx.tint, np.float32)

    img = cv2.remap(np.clip(canvas, 0, 255).astype(np.uint8), mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ids = cv2.remap(ids, mapx, mapy, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)

    if fx.focus_blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), fx.focus_blur)
    if fx.motion_blur > 1:
        k = np.zeros((fx.motion_blur, fx.motion_blur), np.float32)
        k[fx.motion_blur // 2] = 1
        rot = cv2.getRotationMatrix2D(((fx.motion_blur - 1) / 2, (fx.motion_blur - 1) / 2), fx.motion_angle_deg, 1)
        k = cv2.warpAffine(k, rot, k.shape[::-1])
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    if fx.noise > 0:
        img = np.clip(img + rng.normal(0, fx.noise, img.shape).astype(np.float32), 0, 255).astype(np.uint8)
    if fx.jpeg_quality and jpeg_roundtrip:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, fx.jpeg_quality])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    return img, annotate(scene, camera.project, ids), ids


@dataclass
class TableView:
    """A rectified top-down view of a square of the table, as the TableMapper will make it from a
    calibrated camera: output pixel = ``A`` @ table mm (an affine map)."""

    centre_mm: tuple[float, float]
    side_mm: float
    angle_deg: float
    width: int
    height: int

    @property
    def A(self) -> np.ndarray:
        s = self.width / self.side_mm
        a = math.radians(self.angle_deg)
        c, si = math.cos(a), math.sin(a)
        # table +y points up the output image; the view is turned by angle_deg about its centre
        R = np.array([[c, si], [si, -c]]) * s
        t = np.array([self.width / 2, self.height / 2]) - R @ np.array(self.centre_mm)
        return np.vstack([np.column_stack([R, t]), [0, 0, 1]])

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        A = self.A
        return np.asarray(pts_mm, float) @ A[:2, :2].T + A[:2, 2]

    def to_json(self) -> dict:
        return {"centre_mm": list(self.centre_mm), "side_mm": self.side_mm, "angle_deg": self.angle_deg,
                "width": self.width, "height": self.height, "table_mm_to_px": self.A.tolist()}


OUTSIDE_ID = -3


def rectify(scene: Scene, camera: Camera, image: np.ndarray, ids: np.ndarray,
            view: TableView) -> tuple[np.ndarray, list[CardAnnotation], np.ndarray]:
    """Warp a (distorted) camera image and its id map to the table view; annotate there."""
    # The sampling map is smooth: compute it on a coarse grid and scale it up (fast, sub-pixel exact enough).
    gw, gh = 65, max(2, 65 * view.height // view.width)
    v, u = np.mgrid[0:gh, 0:gw].astype(np.float64)
    u, v = u * (view.width - 1) / (gw - 1), v * (view.height - 1) / (gh - 1)
    Ainv = np.linalg.inv(view.A)
    mm = np.stack([u.ravel(), v.ravel(), np.ones(u.size)], 1) @ Ainv.T
    px, valid = camera.project(mm[:, :2], with_valid=True)
    px[~valid] = -1e5  # beyond what the lens model covers: outside the camera's picture
    px = px.astype(np.float32)
    mapx = cv2.resize(px[:, 0].reshape(gh, gw), (view.width, view.height), interpolation=cv2.INTER_LINEAR)
    mapy = cv2.resize(px[:, 1].reshape(gh, gw), (view.width, view.height), interpolation=cv2.INTER_LINEAR)
    out = cv2.remap(image, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    out_ids = cv2.remap(ids, mapx, mapy, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=OUTSIDE_ID)
    return out, annotate(scene, view.project, out_ids), out_ids


def annotate(scene: Scene, project, ids: np.ndarray) -> list[CardAnnotation]:
    """Annotations from the object-id map; ``project`` maps table mm to the image's pixels."""
    H, W = ids.shape
    counts = np.bincount(np.clip(ids.ravel().astype(np.int64) + 2, 0, None), minlength=len(scene.cards) + 2)[2:]
    out = []
    for i, card in enumerate(scene.cards):
        corners = project(card.corners_mm())
        area = _polygon_area(corners)
        vis = int(counts[i]) if i < len(counts) else 0
        bbox = None
        if vis:
            x0 = max(int(math.floor(corners[:, 0].min())) - 2, 0)
            y0 = max(int(math.floor(corners[:, 1].min())) - 2, 0)
            x1 = min(int(math.ceil(corners[:, 0].max())) + 3, W)
            y1 = min(int(math.ceil(corners[:, 1].max())) + 3, H)
            ys, xs = np.nonzero(ids[y0:y1, x0:x1] == i)
            if len(xs):
                bbox = (float(x0 + xs.min()), float(y0 + ys.min()), float(x0 + xs.max() + 1), float(y0 + ys.max() + 1))
        ann = CardAnnotation(i, card.label, corners, vis, area, bbox)
        ann.labelled = bool(bbox is not None and ann.visible_fraction >= MIN_VISIBLE
                            and bbox[2] - bbox[0] >= MIN_BOX_PX and bbox[3] - bbox[1] >= MIN_BOX_PX)
        out.append(ann)
    return out

