#!/usr/bin/env python3
# Writes the scene files of the differential corpus (tests/diff/*.json) and of the render bench
# (benches/scenes/*.json): matrices are computed here, column-major as GLSL reads them.
# Usage (from tools/shc): python3 tests/diff/make_scenes.py tests/diff benches/scenes
import json, math, sys, os
OUT = sys.argv[1]
def mat_mul(a, b):  # row-major 4x4
    return [[sum(a[i][k]*b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]
def persp(fovy, aspect, n, f):
    t = 1/math.tan(fovy/2)
    return [[t/aspect,0,0,0],[0,t,0,0],[0,0,(f+n)/(n-f),2*f*n/(n-f)],[0,0,-1,0]]
def translate(x,y,z): return [[1,0,0,x],[0,1,0,y],[0,0,1,z],[0,0,0,1]]
def rot(axis, ang):
    x,y,z = axis; l = math.sqrt(x*x+y*y+z*z); x/=l; y/=l; z/=l
    c, s = math.cos(ang), math.sin(ang); C = 1-c
    return [[x*x*C+c, x*y*C-z*s, x*z*C+y*s, 0],[y*x*C+z*s, y*y*C+c, y*z*C-x*s, 0],[z*x*C-y*s, z*y*C+x*s, z*z*C+c, 0],[0,0,0,1]]
def colmajor(m, n=4): return [round(m[r][c], 6) for c in range(n) for r in range(n)]
def r6(v): return [round(x, 6) for x in v]
def dump(name, scene):
    def enc(o, key=None):
        if isinstance(o, dict):
            return "{" + ", ".join('"%s": %s' % (k, enc(v, k)) for k, v in o.items()) + "}"
        if isinstance(o, list):
            if key == "rgba8" and len(o) > 64:
                rows = [", ".join(str(x) for x in o[i:i+32]) for i in range(0, len(o), 32)]
                return "[\n      " + ",\n      ".join(rows) + "]"
            if o and all(not isinstance(x, (dict, list)) for x in o):
                return "[" + ", ".join(json.dumps(x) for x in o) + "]"
            return "[\n    " + ",\n    ".join(enc(x) for x in o) + "]"
        return json.dumps(o)
    text = enc(scene) + "\n"
    json.loads(text)
    open(os.path.join(OUT, name + ".json"), "w").write(text)

QUAD = [-1,-1, 1,-1, 1,1, -1,1]
QIDX = [0,1,2, 0,2,3]
S = 64

# gradient: quad with colours incl. out-of-range values and alpha, plus a small triangle on top.
dump("gradient", {"size": [S, S], "clear": [0.1, 0.2, 0.3, 0.0],
  "attributes": [
    {"location": 0, "components": 2, "data": [-0.9,-0.8, 0.8,-0.9, 0.9,0.7, -0.7,0.9, -0.3,-0.2, 0.6,0.1, 0.1,0.6]},
    {"location": 1, "components": 4, "data": [1,0,0,1, 0,1,0,0.5, 0,0,1,1, 1.5,-0.5,0.5,0.25, 1,1,1,1, 0.2,0.2,0.2,0.8, 0.9,0.1,0.6,1]}],
  "indices": [0,1,2, 0,2,3, 4,5,6]})

# cull_viewport: CCW and CW triangles with culling on, in an offset viewport; one leaves the viewport.
dump("cull_viewport", {"size": [S, S], "clear": [0, 0, 0, 1], "cull": True, "viewport": [16, 8, 40, 40],
  "attributes": [
    {"location": 0, "components": 2, "data": [-0.9,-0.9, 0.1,-0.9, -0.4,0.0,   0.2,-0.9, 0.4,0.0, 0.9,-0.9,
                                               -0.9,0.1, -0.1,0.1, -0.5,1.6,   0.2,0.1, 0.2,0.9, 0.9,0.5]},
    {"location": 1, "components": 4, "data": [1,0,0,1]*3 + [0,1,0,1]*3 + [0,0,1,1]*3 + [1,1,0,1]*3}]})

# perspective floor: camera at origin looking down -z, floor at y = -1 from z = +4 (behind) to z = -30.
P = persp(math.radians(60), 1.0, 0.5, 50.0)
V = rot((1,0,0), math.radians(10))
mvp = mat_mul(P, V)
dump("perspective", {"size": [S, S], "clear": [0.05, 0.05, 0.1, 1], "depth": True,
  "attributes": [
    {"location": 0, "components": 3, "data": [-6,-1,4, 6,-1,4, 6,-1,-30, -6,-1,-30]},
    {"location": 1, "components": 2, "data": [0,0, 1,0, 1,8, 0,8]}],
  "indices": QIDX, "uniforms": {"u_mvp": colmajor(mvp)}})

# textured: a quad tilted away, 8x8 checker (nearest, repeat, uv up to 3) times a 2x2 tint (linear, clamp).
M = mat_mul(translate(0, 0, -3.0), rot((1,0.2,0), math.radians(-55)))
mvp = mat_mul(persp(math.radians(60), 1.0, 0.5, 20.0), M)
checker = []
for y in range(8):
    for x in range(8):
        on = (x + y) % 2 == 0
        checker += ([230, 220, 40, 255] if on else [30, 60, 200, 128]) if x != 3 else [255, 255, 255, 255]
dump("textured", {"size": [S, S], "clear": [0.2, 0.2, 0.2, 1],
  "attributes": [
    {"location": 0, "components": 3, "data": [-1.2,-1.2,0, 1.2,-1.2,0, 1.2,1.2,0, -1.2,1.2,0]},
    {"location": 1, "components": 2, "data": [0,0, 3,0, 3,3, 0,3]}],
  "indices": QIDX, "uniforms": {"u_mvp": colmajor(mvp)},
  "textures": {"u_checker": {"unit": 0, "width": 8, "height": 8, "rgba8": checker, "filter": "nearest", "wrap": "repeat"},
               "u_tint": {"unit": 1, "width": 2, "height": 2, "rgba8": [255,255,255,255, 255,128,128,255, 128,255,128,255, 128,128,255,255],
                          "filter": "linear", "wrap": "clamp_to_edge"}}})

def cube():
    pos, nrm, idx = [], [], []
    faces = [((1,0,0),(0,1,0),(0,0,1)), ((-1,0,0),(0,0,1),(0,1,0)), ((0,1,0),(0,0,1),(1,0,0)),
             ((0,-1,0),(1,0,0),(0,0,1)), ((0,0,1),(1,0,0),(0,1,0)), ((0,0,-1),(0,1,0),(1,0,0))]
    for n, u, v in faces:
        # orient so (u x v) == n for CCW when seen from outside
        cr = (u[1]*v[2]-u[2]*v[1], u[2]*v[0]-u[0]*v[2], u[0]*v[1]-u[1]*v[0])
        if cr != n: u, v = v, u
        base = len(pos)//3
        for su, sv in [(-1,-1),(1,-1),(1,1),(-1,1)]:
            pos += [n[i] + su*u[i] + sv*v[i] for i in range(3)]
            nrm += list(n)
        idx += [base, base+1, base+2, base, base+2, base+3]
    return pos, nrm, idx

def cube_scene(size, angle):
    pos, nrm, idx = cube()
    model = mat_mul(rot((1,1,0.3), angle), [[0.6,0,0,0],[0,0.6,0,0],[0,0,0.6,0],[0,0,0,1]])
    view = translate(0, 0, -3.2)
    mvp = mat_mul(persp(math.radians(50), size[0]/size[1], 0.5, 10.0), mat_mul(view, model))
    rot3 = rot((1,1,0.3), angle)
    normal = [[rot3[r][c] for c in range(3)] for r in range(3)]
    world_model = mat_mul(view, model)
    return {"size": size, "clear": [0.1, 0.1, 0.12, 1], "depth": True, "cull": True,
      "attributes": [{"location": 0, "components": 3, "data": pos}, {"location": 1, "components": 3, "data": nrm}],
      "indices": idx,
      "uniforms": {"u_mvp": colmajor(mvp), "u_model": colmajor(world_model), "u_normal_matrix": colmajor(normal, 3),
                   "u_light_dir": [0.4, 0.7, 0.6], "u_light_pos": [1.6, -1.2, -2.0], "u_eye": [0, 0, 0], "u_color": [0.9, 0.45, 0.2, 1.0]}}
dump("lit_cube", cube_scene([S, S], 0.7))

FS = {"location": 0, "components": 2, "data": QUAD}
dump("functions", {"size": [S, S], "attributes": [FS], "indices": QIDX, "uniforms": {"u_time": 0.8}})

# depth: three interpenetrating triangles drawn far, near, middle in a viewport sub-rectangle.
dump("depth", {"size": [S, S], "clear": [0, 0, 0, 1], "depth": True, "viewport": [6, 4, 50, 56],
  "attributes": [
    {"location": 0, "components": 3, "data": [-0.9,-0.9,0.6, 0.9,-0.7,0.6, 0.0,0.9,0.6,
                                               -0.8,0.2,-0.5, 0.8,0.5,0.9, -0.2,-0.8,0.9,
                                               -0.6,-0.5,-0.2, 0.9,0.1,0.2, -0.4,0.95,0.95]},
    {"location": 1, "components": 3, "data": [1,0,0, 1,0.3,0, 1,0,0.3,  0,1,0, 0.3,1,0, 0,1,0.3,  0,0,1, 0.3,0,1, 0,0.3,1]}]})

M = mat_mul(translate(0, 0, -2.5), rot((1,0,0), math.radians(-50)))
mvp = mat_mul(persp(math.radians(60), 1.0, 0.5, 10.0), M)
dump("fragcoord", {"size": [S, S], "clear": [0, 0, 0, 0], "depth": True,
  "attributes": [{"location": 0, "components": 3, "data": [-1.5,-1.5,0, 1.5,-1.5,0, 1.5,1.5,0, -1.5,1.5,0]}],
  "indices": QIDX, "uniforms": {"u_mvp": colmajor(mvp)}})

view = mat_mul(translate(0, 0, -3), rot((0,1,0), math.radians(25)))
tint = [[0.8,0.1,0.1],[0.2,0.7,0.1],[0.0,0.2,0.9]]
pos, nrm, idx = cube()
dump("matrices", {"size": [S, S], "clear": [0, 0, 0, 1], "depth": True, "cull": True,
  "attributes": [{"location": 0, "components": 3, "data": [p * 0.7 for p in pos]}], "indices": idx,
  "uniforms": {"u_proj": colmajor(persp(math.radians(55), 1.0, 0.5, 10.0)), "u_view": colmajor(view),
               "u_tint": [tint[r][c] for c in range(3) for r in range(3)]}})

tex = []
for y in range(4):
    for x in range(4):
        tex += [x*80, y*80, 255 - (x+y)*30, 255 if (x + y) % 3 else 100]
dump("builtins", {"size": [S, S], "attributes": [FS], "indices": QIDX, "uniforms": {"u_axis": [0.3, 0.8, 0.5]},
  "textures": {"u_tex": {"unit": 0, "width": 4, "height": 4, "rgba8": tex, "filter": "linear", "wrap": "repeat"}}})
dump("logic", {"size": [S, S], "attributes": [FS], "indices": QIDX, "uniforms": {"u_radius": 0.7}})
dump("edge_cases", {"size": [S, S], "attributes": [FS], "indices": QIDX, "uniforms": {"u_zero": 0.0}})

if len(sys.argv) > 2:
    B = sys.argv[2]
    OUT = B
    dump("cube", cube_scene([640, 480], 0.7))
    dump("fullscreen", {"size": [640, 480], "attributes": [FS], "indices": QIDX, "uniforms": {"u_time": 0.8}})
    M = mat_mul(translate(0, 0, -2.2), rot((1,0,0), math.radians(-35)))
    mvp = mat_mul(persp(math.radians(60), 640/480, 0.5, 10.0), M)
    tex = []
    for y in range(64):
        for x in range(64):
            tex += [(x*4) & 255, (y*4) & 255, 128 + ((x ^ y) & 1) * 100, 255]
    dump("textured_quad", {"size": [640, 480], "clear": [0, 0, 0, 1],
      "attributes": [{"location": 0, "components": 3, "data": [-1.6,-1.6,0, 1.6,-1.6,0, 1.6,1.6,0, -1.6,1.6,0]},
                     {"location": 1, "components": 2, "data": [0,0, 2,0, 2,2, 0,2]}],
      "indices": QIDX, "uniforms": {"u_mvp": colmajor(mvp)},
      "textures": {"u_tex": {"unit": 0, "width": 64, "height": 64, "rgba8": tex, "filter": "linear", "wrap": "repeat"}}})
