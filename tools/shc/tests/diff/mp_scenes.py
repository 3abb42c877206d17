#!/usr/bin/env python3
# Writes the multi-pass scenes of the differential corpus (mp_*.json): an earlier pass draws
# into its own target, the picture samples it (see tools/scene/src/model/passes.rs).
# Usage (from tools/shc): python3 tests/diff/mp_scenes.py tests/diff
import json, math, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
QUAD = [-1, -1, 1, -1, 1, 1, -1, 1]
QIDX = [0, 1, 2, 0, 2, 3]

def mat_mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]
def colmajor(m): return [round(m[r][c], 6) for c in range(4) for r in range(4)]
def persp(fovy, aspect, n, f):
    t = 1 / math.tan(fovy / 2)
    return [[t / aspect, 0, 0, 0], [0, t, 0, 0], [0, 0, (f + n) / (n - f), 2 * f * n / (n - f)], [0, 0, -1, 0]]
def look_at(eye, at, up):
    sub = lambda a, b: [a[i] - b[i] for i in range(3)]
    norm = lambda v: [x / math.sqrt(sum(y * y for y in v)) for x in v]
    cross = lambda a, b: [a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0]]
    dot = lambda a, b: sum(a[i] * b[i] for i in range(3))
    f = norm(sub(at, eye)); s = norm(cross(f, up)); u = cross(s, f)
    return [[s[0], s[1], s[2], -dot(s, eye)], [u[0], u[1], u[2], -dot(u, eye)],
            [-f[0], -f[1], -f[2], dot(f, eye)], [0, 0, 0, 1]]

def dump(name, scene):
    text = json.dumps(scene, indent=1) + "\n"
    json.loads(text)
    open(os.path.join(OUT, name + ".json"), "w").write(text)

# Interpenetrating coloured triangles (depth.vert/depth.frag: vec3 position, vec3 colour),
# asymmetric top/bottom and left/right so a flipped target shows.
def triangles(scale):
    pos = [-0.9, -0.8, 0.5,  0.7, -0.6, -0.2,  -0.3, 0.9, 0.1,
           -0.6, 0.5, -0.4,  0.9, 0.2, 0.3,  0.2, -0.9, 0.0,
           0.3, 0.85, 0.6,  0.6, 0.6, -0.6,  0.85, 0.95, 0.2]
    col = [1, 0.1, 0.1,  1, 0.6, 0.0,  0.9, 0.2, 0.5,
           0.1, 0.3, 1,  0.2, 0.9, 1,  0.0, 0.5, 0.6,
           0.3, 1, 0.2,  0.9, 1, 0.3,  0.1, 0.7, 0.1]
    return [{"location": 0, "components": 3, "data": pos},
            {"location": 1, "components": 3, "data": [round(c * scale, 4) for c in col]}]

fullscreen = [{"location": 0, "components": 2, "data": QUAD}]

# mp_post: the triangles into a 64x64 RGBA8 target, then a blur + edge pass over it.
dump("mp_post", {
    "size": [64, 64],
    "passes": [{"name": "scene", "vertex": "depth.vert", "fragment": "depth.frag",
                "size": [64, 64], "clear": [0.05, 0.05, 0.2, 1], "depth": True,
                "attributes": triangles(1.0)}],
    "attributes": fullscreen, "indices": QIDX,
    "uniforms": {"u_texel": [1 / 64, 1 / 64]},
    "textures": {"u_scene": {"unit": 0, "pass": "scene", "filter": "linear", "wrap": "clamp"}},
})

# mp_hdr: the triangles with colours up to 4 into an RGBA32F target, then tone mapping.
dump("mp_hdr", {
    "size": [64, 64],
    "passes": [{"name": "hdr", "vertex": "depth.vert", "fragment": "depth.frag",
                "format": "rgba32f", "size": [32, 32], "clear": [0.0, 0.0, 0.0, 1], "depth": True,
                "attributes": triangles(4.0)}],
    "attributes": fullscreen, "indices": QIDX,
    "uniforms": {"u_exposure": 0.8},
    "textures": {"u_hdr": {"unit": 0, "pass": "hdr", "filter": "linear", "wrap": "clamp"}},
})

# mp_shadow: a floor, a floating square and a tilted triangle; a depth pass from an oblique
# orthographic light (polygon offset), then the camera's pass with sampler2DShadow PCF.
floor = [-2, 0, -2,  2, 0, -2,  2, 0, 2,  -2, 0, 2]
square = [-0.6, 1.0, -0.6,  0.6, 1.0, -0.6,  0.6, 1.0, 0.6,  -0.6, 1.0, 0.6]
tri = [0.9, 0.3, 0.9,  1.6, 0.3, 0.5,  1.2, 1.4, 1.2]
pos = floor + square + tri
col = [0.8, 0.8, 0.7] * 4 + [0.9, 0.3, 0.2] * 4 + [0.2, 0.5, 0.9] * 3
idx = [0, 2, 1, 0, 3, 2,  4, 6, 5, 4, 7, 6,  8, 9, 10]
# Light: ndc x = (x + 0.4 y) / 2.2, ndc y = (-z + 0.3 y) / 2.2, ndc z = (1 - y) / 2
# (window depth (3 - y) / 4: y = 3 nearest).
light = [[1 / 2.2, 0.4 / 2.2, 0, 0], [0, 0.3 / 2.2, -1 / 2.2, 0], [0, -0.5, 0, 0.5], [0, 0, 0, 1]]
camera = mat_mul(persp(math.radians(50), 1.0, 0.5, 20), look_at([0.5, 3.2, 4.2], [0, 0, 0], [0, 1, 0]))
geometry = [{"location": 0, "components": 3, "data": pos},
            {"location": 1, "components": 3, "data": col}]
dump("mp_shadow", {
    "size": [64, 64], "clear": [0.1, 0.1, 0.15, 1], "depth": True,
    "passes": [{"name": "shadow", "vertex": "mp_shadow_depth.vert", "fragment": "depth.frag",
                "size": [64, 64], "depth": True, "polygon_offset": [1.5, 4.0],
                "attributes": geometry, "indices": idx,
                "uniforms": {"u_light": colmajor(light)}}],
    "attributes": geometry, "indices": idx,
    "uniforms": {"u_mvp": colmajor(camera), "u_light": colmajor(light), "u_texel": 1 / 64},
    "textures": {"u_shadow": {"unit": 0, "pass": "shadow", "attachment": "depth",
                              "compare": "LEQUAL", "filter": "linear", "wrap": "clamp"}},
})

# mp_mips: the triangles into a 32x32 RGBA8 target, its chain generated (glGenerateMipmap vs
# the software box chain), sampled trilinear on the tilted, repeating quad of textured.json.
textured = json.load(open(os.path.join(OUT, "textured.json")))
dump("mp_mips", {
    "size": [64, 64], "clear": [0.2, 0.2, 0.2, 1],
    "passes": [{"name": "art", "vertex": "depth.vert", "fragment": "depth.frag",
                "size": [32, 32], "clear": [0.05, 0.05, 0.2, 1], "depth": True,
                "attributes": triangles(1.0)}],
    "attributes": [textured["attributes"][0],
                   {"location": 1, "components": 2, "data": [0, 0, 6, 0, 6, 6, 0, 6]}],
    "indices": QIDX,
    "uniforms": {"u_mvp": textured["uniforms"]["u_mvp"]},
    "textures": {"u_img": {"unit": 0, "pass": "art", "mipmaps": True, "filter": "linear",
                           "min_filter": "linear_mipmap_linear", "wrap": "repeat"}},
})
