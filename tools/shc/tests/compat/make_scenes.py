#!/usr/bin/env python3
# Writes the scene files of the profile-2 compatibility suite (tests/compat/*.json): meshes,
# camera matrices (column-major, as GLSL reads them), uniforms and procedural textures.
# Usage (from tools/shc): python3 tests/compat/make_scenes.py tests/compat
#
# Every scene of a kind carries the union of the uniforms its shaders read, under one naming
# convention, so several shaders share one scene (a uniform a program does not have is skipped by
# both renderers). Struct members and struct-array elements use GL's active-uniform names
# (`u_material.diffuse`, `u_lights[1].color`), which mesa-ref sets by name.
import json, math, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
S = 64

# ---- small linear algebra (row-major 4x4 lists) ----
def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]
def perspective(fovy, aspect, near, far):
    t = 1.0 / math.tan(fovy / 2)
    return [[t / aspect, 0, 0, 0], [0, t, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]]
def translation(x, y, z):
    return [[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]]
def scaling(s):
    return [[s, 0, 0, 0], [0, s, 0, 0], [0, 0, s, 0], [0, 0, 0, 1]]
def rotation(axis, angle):
    x, y, z = axis
    l = math.sqrt(x * x + y * y + z * z)
    x, y, z = x / l, y / l, z / l
    c, s = math.cos(angle), math.sin(angle)
    k = 1 - c
    return [[x * x * k + c, x * y * k - z * s, x * z * k + y * s, 0],
            [y * x * k + z * s, y * y * k + c, y * z * k - x * s, 0],
            [z * x * k - y * s, z * y * k + x * s, z * z * k + c, 0], [0, 0, 0, 1]]
def look_at(eye, target, up):
    f = [target[i] - eye[i] for i in range(3)]
    fl = math.sqrt(sum(v * v for v in f)); f = [v / fl for v in f]
    s = [f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]]
    sl = math.sqrt(sum(v * v for v in s)); s = [v / sl for v in s]
    u = [s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]]
    return [[s[0], s[1], s[2], -sum(s[i] * eye[i] for i in range(3))],
            [u[0], u[1], u[2], -sum(u[i] * eye[i] for i in range(3))],
            [-f[0], -f[1], -f[2], sum(f[i] * eye[i] for i in range(3))], [0, 0, 0, 1]]
def inverse3(m):
    a, b, c = m[0]; d, e, f = m[1]; g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
def normal_matrix(model):
    inv = inverse3([row[:3] for row in model[:3]])
    return [[inv[c][r] for c in range(3)] for r in range(3)]  # transpose(inverse(mat3(model)))
def colmajor(m):
    n = len(m)
    return [round(m[r][c], 6) for c in range(n) for r in range(n)]
def r6(v):
    return [round(x, 6) for x in v]

# ---- output ----
def dump(name, scene):
    def enc(o, key=None):
        if isinstance(o, dict):
            return "{" + ", ".join('"%s": %s' % (k, enc(v, k)) for k, v in o.items()) + "}"
        if isinstance(o, list):
            if o and all(not isinstance(x, (dict, list)) for x in o):
                per = 32 if key == "rgba8" else 24
                if len(o) > per:
                    rows = [", ".join(json.dumps(x) for x in o[i:i + per]) for i in range(0, len(o), per)]
                    return "[\n      " + ",\n      ".join(rows) + "]"
                return "[" + ", ".join(json.dumps(x) for x in o) + "]"
            return "[\n    " + ",\n    ".join(enc(x) for x in o) + "]"
        return json.dumps(o)
    text = enc(scene) + "\n"
    json.loads(text)
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        f.write(text)

# ---- meshes: positions, normals, uvs, tangents (xyz + handedness w), indices ----
def sphere(radius, slices, stacks):
    pos, nrm, uv, tan, idx = [], [], [], [], []
    for j in range(stacks + 1):
        theta = math.pi * j / stacks            # 0 at the north pole
        for i in range(slices + 1):
            phi = 2 * math.pi * i / slices
            n = [math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi)]
            pos += [radius * c for c in n]
            nrm += n
            uv += [i / slices, 1 - j / stacks]
            tan += [-math.sin(phi), 0.0, -math.cos(phi), 1.0]
    for j in range(stacks):
        for i in range(slices):
            a = j * (slices + 1) + i
            b = a + slices + 1
            idx += [a, b, a + 1, a + 1, b, b + 1]
    return [r6(pos), r6(nrm), r6(uv), r6(tan), idx]

def box(center, half):
    pos, nrm, uv, tan, idx = [], [], [], [], []
    faces = [((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
             ((0, 1, 0), (1, 0, 0), (0, 0, -1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
    for n, u, v in faces:  # u x v == n: counter-clockwise seen from outside
        base = len(pos) // 3
        for su, sv in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
            pos += [center[i] + half[i] * (n[i] + su * u[i] + sv * v[i]) for i in range(3)]
            nrm += list(n)
            uv += [(su + 1) / 2, (sv + 1) / 2]
            tan += list(u) + [1.0]
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return [pos, nrm, uv, tan, idx]

def merge(*meshes):
    out = [[], [], [], [], []]
    for m in meshes:
        base = len(out[0]) // 3
        for k in range(4):
            out[k] += m[k]
        out[4] += [base + i for i in m[4]]
    return out

def mesh_attributes(m):
    return [{"location": 0, "components": 3, "data": m[0]},
            {"location": 1, "components": 3, "data": m[1]},
            {"location": 2, "components": 2, "data": m[2]},
            {"location": 3, "components": 4, "data": m[3]}]

# ---- textures ----
def clamp8(x):
    return max(0, min(255, int(round(x))))

def image_texture():
    # A 64x64 test picture for the post-processing kernels: sky gradient, a disc, a square, a
    # diagonal bar and a fine checker, so blurs, edges and colour transforms all show.
    px = []
    for y in range(64):
        for x in range(64):
            v = y / 63.0
            r, g, b = 40 + 120 * v, 70 + 110 * v, 140 + 100 * v
            if (x - 22) ** 2 + (y - 40) ** 2 < 13 ** 2:
                r, g, b = 230, 70, 40
            if 36 <= x < 56 and 8 <= y < 28:
                r, g, b = 40, 160, 80
            if abs((x - y) - 20) < 3:
                r, g, b = 250, 240, 200
            if x >= 44 and y >= 44 and ((x // 2) + (y // 2)) % 2 == 0:
                r, g, b = 20, 20, 30
            px += [clamp8(r), clamp8(g), clamp8(b), 255]
    return {"unit": 0, "width": 64, "height": 64, "rgba8": px, "filter": "nearest", "wrap": "clamp_to_edge"}

def albedo_texture():
    # 8x8 bricks: two rows of offset bricks with mortar lines.
    px = []
    for y in range(8):
        for x in range(8):
            mortar = y % 4 == 0 or (x + (2 if y >= 4 else 0)) % 4 == 0
            shade = 0.85 + 0.15 * ((x * 3 + y * 5) % 4) / 3.0
            c = (200, 195, 185) if mortar else (170 * shade, 80 * shade, 55 * shade)
            px += [clamp8(c[0]), clamp8(c[1]), clamp8(c[2]), 255]
    return {"unit": 0, "width": 8, "height": 8, "rgba8": px, "filter": "nearest", "wrap": "repeat"}

def normal_map_texture():
    # 16x16 tangent-space normal map of round bumps; alpha is the height.
    n = 16
    def h(x, y):
        return 0.5 + 0.5 * math.sin(2 * math.pi * x / 8.0) * math.sin(2 * math.pi * y / 8.0)
    px = []
    for y in range(n):
        for x in range(n):
            dx = (h(x + 1, y) - h(x - 1, y)) * 1.5
            dy = (h(x, y + 1) - h(x, y - 1)) * 1.5
            l = math.sqrt(dx * dx + dy * dy + 1)
            nx, ny, nz = -dx / l, -dy / l, 1 / l
            px += [clamp8((nx * 0.5 + 0.5) * 255), clamp8((ny * 0.5 + 0.5) * 255),
                   clamp8((nz * 0.5 + 0.5) * 255), clamp8(h(x, y) * 255)]
    return {"unit": 1, "width": n, "height": n, "rgba8": px, "filter": "linear", "wrap": "repeat"}

def matcap_texture():
    # 16x16 lit-sphere picture: warm key light upper left, cool fill, dark rim.
    n = 16
    px = []
    for y in range(n):
        for x in range(n):
            u, v = (x + 0.5) / n * 2 - 1, (y + 0.5) / n * 2 - 1
            d = min(1.0, math.sqrt(u * u + v * v))
            z = math.sqrt(max(0.0, 1 - d * d))
            key = max(0.0, -0.5 * u + 0.5 * v + 0.7 * z)
            spec = key ** 12
            r = 40 + 170 * key + 60 * spec
            g = 30 + 120 * key + 60 * spec
            b = 60 + 60 * key + 80 * (1 - z) + 60 * spec
            px += [clamp8(r), clamp8(g), clamp8(b), 255]
    return {"unit": 2, "width": n, "height": n, "rgba8": px, "filter": "linear", "wrap": "clamp_to_edge"}

MESH_TEXTURES = {"u_albedo": albedo_texture(), "u_normal_map": normal_map_texture(),
                 "u_matcap": matcap_texture()}

def lighting_uniforms(eye):
    return {
        "u_view_pos": r6(eye),
        "u_light_dir": [0.5, 0.8, 0.6], "u_light_color": [1.0, 0.95, 0.9],
        "u_light0_pos": [2.5, 2.0, 2.0], "u_light0_color": [1.0, 0.6, 0.3],
        "u_light1_pos": [-2.5, 1.0, 1.5], "u_light1_color": [0.3, 0.5, 1.0],
        "u_ambient": [0.08, 0.08, 0.1],
        "u_diffuse_color": [0.8, 0.35, 0.25], "u_specular_color": [1.0, 1.0, 1.0], "u_shininess": 32.0,
        "u_material.ambient": [0.1, 0.05, 0.05], "u_material.diffuse": [0.7, 0.45, 0.2],
        "u_material.specular": [0.9, 0.9, 0.8], "u_material.shininess": 24.0,
        "u_lights[0].position": [2.5, 2.0, 2.0], "u_lights[0].color": [1.0, 0.5, 0.3], "u_lights[0].intensity": 1.2,
        "u_lights[1].position": [-2.5, 1.0, 1.5], "u_lights[1].color": [0.3, 0.5, 1.0], "u_lights[1].intensity": 1.0,
        "u_lights[2].position": [0.0, -2.5, 2.0], "u_lights[2].color": [0.4, 1.0, 0.4], "u_lights[2].intensity": 0.8,
        "u_light_count": 3, "u_mode": 2, "u_time": 0.7,
        "u_sky_color": [0.6, 0.75, 1.0], "u_ground_color": [0.3, 0.22, 0.15],
        "u_rim_color": [0.4, 0.8, 1.0], "u_rim_power": 2.5, "u_exposure": 1.5,
        "u_fog_color": [0.6, 0.65, 0.72], "u_fog_start": 3.0, "u_fog_end": 30.0, "u_fog_density": 0.07,
    }

def mesh_scene(mesh, model, eye, target, clear, fov=45.0, far=60.0):
    view = look_at(eye, target, [0, 1, 0])
    proj = perspective(math.radians(fov), 1.0, 0.3, far)
    mvp = mul(proj, mul(view, model))
    u = {"u_mvp": colmajor(mvp), "u_model": colmajor(model), "u_normal_matrix": colmajor(normal_matrix(model)),
         "u_view": colmajor(view), "u_proj": colmajor(proj)}
    u.update(lighting_uniforms(eye))
    return {"size": [S, S], "clear": clear, "depth": True, "cull": True,
            "attributes": mesh_attributes(mesh), "indices": mesh[4],
            "uniforms": u, "textures": MESH_TEXTURES}

QUAD = [-1, -1, 1, -1, 1, 1, -1, 1]
QIDX = [0, 1, 2, 0, 2, 3]
FULLSCREEN = {"location": 0, "components": 2, "data": QUAD}

def rows_of(colmajor_list, n):
    """The same matrix's floats row by row (a row_major block member's buffer order)."""
    return [colmajor_list[c * n + r] for r in range(n) for c in range(n)]

def add_block_uniforms(scene):
    """Uniform-block members (issue 13 item 4; mesa-ref writes them into a buffer): the
    anonymous block `Matrices` (u_proj, u_view, u_model: plain names, already present), the
    instance-named `Lighting` block and the row_major `Transform` block (matrices by rows)."""
    u = scene["uniforms"]
    u.update({"Lighting.light_pos": [2.5, 2.0, 2.0], "Lighting.light_color": [1.0, 0.85, 0.7],
              "Lighting.ambient": [0.06, 0.07, 0.1], "Lighting.shininess": 28.0,
              "Transform.mvp_rows": rows_of(u["u_mvp"], 4),
              "Transform.normal_rows": rows_of(u["u_normal_matrix"], 3)})
    return scene

# sphere: a UV sphere turned so its seam and poles are off-centre.
sphere_scene = add_block_uniforms(
    mesh_scene(sphere(1.1, 18, 12), mul(rotation((0.3, 1, 0), 0.6), scaling(1.0)),
               [0.0, 0.6, 3.4], [0, 0, 0], [0.05, 0.05, 0.08, 1]))
# The enabled lights of u_lights as a bit mask (lights 0 and 2; loop_light_mask.frag).
sphere_scene["uniforms"]["u_light_mask"] = 5
dump("sphere", sphere_scene)

# cube: a textured, normal-mapped box turned to show three faces.
dump("cube", mesh_scene(box([0, 0, 0], [0.9, 0.9, 0.9]), rotation((1, 1.4, 0.2), 0.75),
                        [0.0, 0.4, 3.6], [0, 0, 0], [0.1, 0.1, 0.12, 1]))

# agg_cube: the cube with its three pictures named as sampler members of structs
# (agg_sampler_struct: `uniform Surface u_surf; uniform Layer u_layers[2];`, GL's names).
agg_cube = mesh_scene(box([0, 0, 0], [0.9, 0.9, 0.9]), rotation((1, 1.4, 0.2), 0.75),
                      [0.0, 0.4, 3.6], [0, 0, 0], [0.1, 0.1, 0.12, 1])
agg_cube["textures"] = {"u_surf.albedo": albedo_texture(), "u_layers[0].tex": normal_map_texture(),
                        "u_layers[1].tex": matcap_texture()}
agg_cube["uniforms"].update({"u_surf.tint": [0.6, 0.55, 0.5],
                             "u_layers[0].weight": 0.3, "u_layers[0].scale": [2.0, 2.0],
                             "u_layers[1].weight": 0.4, "u_layers[1].scale": [1.0, 1.0]})
dump("agg_cube", agg_cube)

# blk_lights: the sphere lit through uniform block arrays (blk_lights: `uniform Light { vec4
# pos; vec4 color; } lights[3];`, each element its own block, named `Light[k].member` as GL
# names them; mesa-ref fills one buffer per element), the matrices through the `Xform` block
# (mat4, mat3 members) and two row_major projector matrices (`Projector[k].proj`, given by rows).
blk = mesh_scene(sphere(1.1, 18, 12), mul(rotation((0.3, 1, 0), 0.6), scaling(1.0)),
                 [0.0, 0.6, 3.4], [0, 0, 0], [0.05, 0.05, 0.08, 1])
bu = blk["uniforms"]
def projector(eye, fov):
    return mul(perspective(math.radians(fov), 1.0, 0.5, 20.0), look_at(eye, [0, 0, 0], [0, 1, 0]))
bu.update({"Xform.mvp": bu["u_mvp"], "Xform.model": bu["u_model"],
           "Xform.normal_matrix": bu["u_normal_matrix"],
           "Light[0].pos": [2.5, 2.0, 2.0, 1.0], "Light[0].color": [1.0, 0.55, 0.3, 2.2],
           "Light[1].pos": [-2.5, 1.0, 1.5, 1.0], "Light[1].color": [0.3, 0.5, 1.0, 1.8],
           "Light[2].pos": [0.0, -2.5, 2.0, 1.0], "Light[2].color": [0.4, 1.0, 0.4, 1.5],
           "Projector[0].proj": rows_of(colmajor(projector([1.5, 2.5, 3.0], 35.0)), 4),
           "Projector[0].tint": [0.9, 0.8, 0.2, 1.0],
           "Projector[1].proj": rows_of(colmajor(projector([-2.0, -0.5, 3.0], 30.0)), 4),
           "Projector[1].tint": [0.2, 0.7, 0.9, 1.0]})
dump("blk_lights", blk)

# ground: a long floor and three boxes at growing distances, for fog and grid lines.
ground = [[-12, -1, 3, 12, -1, 3, 12, -1, -45, -12, -1, -45], [0, 1, 0] * 4,
          [0, 0, 12, 0, 12, 24, 0, 24], [1, 0, 0, 1] * 4, [0, 1, 2, 0, 2, 3]]
dump("ground", mesh_scene(merge(ground, box([-1.2, -0.4, -2.0], [0.6, 0.6, 0.6]),
                                box([1.6, 0.0, -9.0], [1.0, 1.0, 1.0]),
                                box([-3.0, 0.5, -20.0], [1.5, 1.5, 1.5])),
                          [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                          [0.0, 0.6, 3.0], [0.0, -0.2, -6.0], [0.6, 0.65, 0.72, 1], fov=60.0))

# waves: a 14x14 grid on y = 0, displaced by the wave vertex shaders.
N = 14
gpos, guv, gidx = [], [], []
for j in range(N + 1):
    for i in range(N + 1):
        gpos += [-2 + 4 * i / N, 0.0, -2 + 4 * j / N]
        guv += [i / N, j / N]
for j in range(N):
    for i in range(N):
        a = j * (N + 1) + i
        gidx += [a, a + N + 1, a + 1, a + 1, a + N + 1, a + N + 2]
eye = [0.0, 2.6, 3.6]
view = look_at(eye, [0, -0.3, 0], [0, 1, 0])
proj = perspective(math.radians(50), 1.0, 0.3, 30.0)
u = {"u_mvp": colmajor(mul(proj, view)), "u_amplitude": 0.22, "u_frequency": 2.1, "u_wave_count": 4}
u.update(lighting_uniforms(eye))
u["u_time"] = 0.9
dump("waves", {"size": [S, S], "clear": [0.55, 0.7, 0.85, 1], "depth": True,
               "attributes": [{"location": 0, "components": 3, "data": r6(gpos)},
                              {"location": 2, "components": 2, "data": r6(guv)}],
               "indices": gidx, "uniforms": u})

# tris: four triangles with a different colour at every vertex (flat shading takes the last one).
dump("tris", {"size": [S, S], "clear": [0.0, 0.0, 0.0, 1],
              "attributes": [
                  {"location": 0, "components": 2, "data": [-0.95, -0.95, 0.05, -0.9, -0.5, 0.1,
                                                            0.1, -0.95, 0.95, -0.6, 0.6, 0.3,
                                                            -0.9, 0.2, -0.1, 0.0, -0.4, 0.95,
                                                            0.0, 0.4, 0.9, 0.2, 0.7, 0.95]},
                  {"location": 1, "components": 4, "data": [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1,
                                                            1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1,
                                                            1, 0.5, 0, 1, 0.2, 0.2, 0.2, 1, 0.9, 0.9, 0.9, 1,
                                                            0.5, 0, 1, 1, 0, 0.5, 0.2, 1, 0.8, 0.8, 0.1, 1]}]})

# clip: a floor quad given directly in clip coordinates (w from 1 to 6), so perspective-correct
# and screen-linear interpolation visibly differ.
model = mul(translation(0, 0.1, -3.0), rotation((1, 0, 0), math.radians(-65)))
mvp = mul(perspective(math.radians(60), 1.0, 0.3, 30.0), model)
corners = [(-0.85, -1.6), (0.85, -1.6), (0.85, 1.6), (-0.85, 1.6)]
clip = []
for x, y in corners:
    v = [x, y, 0, 1]
    clip += [sum(mvp[r][k] * v[k] for k in range(4)) for r in range(4)]
dump("clip", {"size": [S, S], "clear": [0.1, 0.1, 0.1, 1],
              "attributes": [{"location": 0, "components": 4, "data": r6(clip)},
                             {"location": 2, "components": 2, "data": [0, 0, 1, 0, 1, 1, 0, 1]}],
              "indices": QIDX})

# quad: the full-screen quad for procedural fragment shaders.
dump("quad", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
              "uniforms": {"u_time": 1.3, "u_resolution": [S, S], "u_center": [30.0, 34.0],
                           "u_color_a": [0.95, 0.55, 0.2], "u_color_b": [0.15, 0.3, 0.6],
                           "u_scale": 6.0, "u_steps": 40, "u_octaves": 4, "u_iterations": 5,
                           "u_mode": 1,
                           "u_palette": [0.9, 0.3, 0.25, 0.95, 0.75, 0.3, 0.3, 0.7, 0.45, 0.25, 0.45, 0.85]}})

# post: the full-screen quad over the 64x64 test picture, texel for texel (nearest, so that
# kernels read whole texels), and the same picture filtered linearly for distortions that
# sample between texel centres.
image_linear = dict(image_texture(), unit=1, filter="linear")
dump("post", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
              "uniforms": {"u_texel": [1 / 64, 1 / 64], "u_resolution": [S, S], "u_time": 0.6,
                           "u_strength": 0.75, "u_levels": 4.0, "u_brightness": 0.05,
                           "u_contrast": 1.25, "u_saturation": 0.6, "u_radius": 2, "u_offset": 2.0,
                           # Whole uniform arrays (every element's floats in order).
                           # The 8 neighbours' offsets, two per vec4; the centre weight last.
                           "u_taps": [-1.0, -1.0, 0.0, -1.0, 1.0, -1.0, -1.0, 0.0,
                                      1.0, 0.0, -1.0, 1.0, 0.0, 1.0, 1.0, 1.0],
                           "u_weights": [w / 16 for w in [1, 2, 1, 2, 2, 1, 2, 1, 4]]},
              "textures": {"u_image": image_texture(), "u_image_linear": image_linear}})

# vertexid: three vertices whose positions come from gl_VertexID (the attribute only counts them).
dump("vertexid", {"size": [S, S], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}],
                  "uniforms": {"u_time": 0.4, "u_sky_color": [0.45, 0.65, 0.95],
                               "u_ground_color": [0.3, 0.25, 0.2]}})

# ---- mipmapping (issue 15) ----
def checker_texture(n, check, a, b, unit, min_filter, mag="linear", wrap="repeat"):
    px = []
    for y in range(n):
        for x in range(n):
            c = a if ((x // check) + (y // check)) % 2 == 0 else b
            px += list(c) + [255]
    return {"unit": unit, "width": n, "height": n, "rgba8": px, "filter": mag,
            "min_filter": min_filter, "wrap": wrap, "mipmaps": True}

def level_colors(n, unit):
    # n x n with explicit levels, each level its own colour ramp, so a level reads as a hue.
    hues = [(230, 60, 40), (60, 200, 70), (50, 90, 230), (240, 210, 40), (200, 60, 220), (40, 220, 220), (250, 250, 250)]
    levels = []
    size, i = n, 0
    while True:
        px = []
        for y in range(size):
            for x in range(size):
                h = hues[i % len(hues)]
                k = 0.6 + 0.4 * ((x + 2 * y) % 3) / 2.0
                px += [clamp8(h[0] * k), clamp8(h[1] * k), clamp8(h[2] * k), 255]
        levels.append(px)
        if size == 1:
            break
        size //= 2
        i += 1
    return {"unit": unit, "width": n, "height": n, "rgba8": levels[0], "levels": levels[1:],
            "filter": "linear", "min_filter": "linear_mipmap_linear", "wrap": "repeat"}

# floor: one long floor quad receding to the horizon under a 64x64 mipmapped checkerboard, once
# per mipmap filter (units 0..3).
# The floor's far and side edges stay off screen (the camera looks down far enough): only
# its diagonal crosses the picture.
floor = [[-64, -1, 4, 64, -1, 4, 64, -1, -60, -64, -1, -60], [0, 1, 0] * 4,
         [0, 0, 32, 0, 32, 16, 0, 16], [1, 0, 0, 1] * 4, [0, 1, 2, 0, 2, 3]]
A, B = (235, 205, 70), (40, 60, 150)
floor_scene = mesh_scene(floor, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
                         [0.0, 0.6, 3.0], [0, -1.0, 0.5], [0.6, 0.7, 0.9, 1], fov=60.0, far=80.0)
floor_scene["textures"] = {
    "u_checker_nn": checker_texture(64, 8, A, B, 0, "nearest_mipmap_nearest", "nearest"),
    "u_checker_ln": checker_texture(64, 8, A, B, 1, "linear_mipmap_nearest"),
    "u_checker_nl": checker_texture(64, 8, A, B, 2, "nearest_mipmap_linear", "nearest"),
    "u_checker_ll": checker_texture(64, 8, A, B, 3, "linear_mipmap_linear"),
}
dump("floor", floor_scene)

# mip: the full-screen quad over textures with explicit levels (textureLod, textureGrad,
# texelFetch, textureSize), mirrored and per-axis wrap, sampler LOD bias and clamp, and
# different magnification and minification filters.
mirror = checker_texture(8, 2, (220, 80, 60), (30, 40, 90), 1, "linear")
mirror.update({"mipmaps": False, "wrap_s": "mirrored_repeat", "wrap_t": "clamp_to_edge"})
mirror["rgba8"] = [clamp8(v * (0.5 + (i // 4 % 8) / 14.0)) if i % 4 != 3 else 255 for i, v in enumerate(mirror["rgba8"])]
biased = checker_texture(32, 4, (250, 160, 40), (30, 90, 60), 2, "linear_mipmap_linear")
biased.update({"lod_bias": 0.75, "min_lod": 0.5, "max_lod": 3.0})
magmin = checker_texture(16, 2, (240, 240, 230), (20, 30, 40), 3, "linear", "nearest")
magmin["mipmaps"] = False
dump("mip", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
             "uniforms": {"u_resolution": [S, S]},
             "textures": {"u_levels": level_colors(16, 0), "u_mirror": mirror,
                          "u_biased": biased, "u_magmin": magmin}})

# ---- built-in outputs (issue 15 item 5) ----
# fragdepth_spheres: two overlapping quads, each a sphere impostor (uv -1..1 across the quad, a
# colour per quad) whose depth comes from gl_FragDepth, so the spheres cut each other along a
# curve no triangle has.
def impostor(cx, cy, half, z, color):
    pos, uv, col = [], [], []
    for (sx, sy) in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        pos += [cx + sx * half, cy + sy * half, z]
        uv += [sx, sy]
        col += color
    return pos, uv, col
pa, ua, ca = impostor(-0.22, -0.05, 0.6, 0.0, [0.9, 0.35, 0.2])
pb, ub, cb = impostor(0.25, 0.08, 0.55, 0.1, [0.25, 0.55, 0.95])
dump("fragdepth_spheres", {"size": [S, S], "clear": [0.08, 0.08, 0.1, 1], "depth": True,
                           "attributes": [{"location": 0, "components": 3, "data": r6(pa + pb)},
                                          {"location": 1, "components": 2, "data": ua + ub},
                                          {"location": 2, "components": 3, "data": ca + cb}],
                           "indices": QIDX + [i + 4 for i in QIDX]})
# ---- cube textures (issue 15) ----
def cube_faces(n, unit, min_filter="linear", mipmaps=False):
    # Six n x n faces (+x, -x, +y, -y, +z, -z), each its own hue under a soft 4x4 checker and a
    # ramp along s, so a face, its orientation and a level all show.
    hues = [(230, 70, 50), (60, 200, 90), (60, 100, 235), (240, 210, 60), (200, 70, 220), (50, 215, 215)]
    faces = []
    for f, h in enumerate(hues):
        px = []
        for y in range(n):
            for x in range(n):
                k = 0.55 + 0.3 * (((x * 4 // n) + (y * 4 // n)) % 2) + 0.15 * x / max(1, n - 1)
                px += [clamp8(h[0] * k), clamp8(h[1] * k), clamp8(h[2] * k), 255]
        faces.append(px)
    return {"unit": unit, "width": n, "height": n, "cube": faces, "filter": "linear",
            "min_filter": min_filter, "wrap": "clamp_to_edge", "mipmaps": mipmaps}

CUBE_TEXTURES = {"u_env": cube_faces(16, 0),
                 "u_env_mip": cube_faces(32, 1, "linear_mipmap_linear", True),
                 "u_env_near": dict(cube_faces(8, 2, "nearest"), filter="nearest")}

# cube_sphere: the sphere of `sphere` with an environment cube (reflection, refraction).
cube_sphere = mesh_scene(sphere(1.1, 18, 12), mul(rotation((0.3, 1, 0), 0.6), scaling(1.0)),
                         [0.0, 0.6, 3.4], [0, 0, 0], [0.05, 0.05, 0.08, 1])
cube_sphere["textures"] = CUBE_TEXTURES
dump("cube_sphere", cube_sphere)

# cube_sky: the full-screen quad with a camera basis, for skyboxes and fixed-level lookups.
dump("cube_sky", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
                  "uniforms": {"u_resolution": [S, S], "u_right": [0.8, 0.0, -0.6],
                               "u_up": [0.12, 0.98, 0.16], "u_forward": [-0.59, 0.2, -0.78],
                               "u_fov_scale": 1.1},
                  "textures": CUBE_TEXTURES})

# iattr_tris: eight triangles over the whole picture (2x2 cells, two triangles each, no shared
# vertices) with integer attributes (issue 14): location 1 an int material id per vertex
# (values above 2^24 and negative, which a float attribute would change; flat takes the last,
# provoking, vertex), location 2 a uvec2 seed per vertex (words above 2^31).
def iattr_tris():
    pos, mat, seed = [], [], []
    ids = [0, 1, 2, 3, -5, 16777217, 2147483647, -2147483648]
    k = 0
    for cy in range(2):
        for cx in range(2):
            x0, y0 = -1.0 + cx, -1.0 + cy
            x1, y1 = x0 + 1.0, y0 + 1.0
            for tri in ([(x0, y0), (x1, y0), (x1, y1)], [(x0, y0), (x1, y1), (x0, y1)]):
                for j, (x, y) in enumerate(tri):
                    pos += [x, y]
                    # Non-provoking vertices carry other ids: only the last one may show.
                    mat.append(ids[k] if j == 2 else ids[(k + 3 + j) % 8])
                    seed += [(0x9E3779B9 * (k + 1) + j) % 2**32, (0x85EBCA6B + 977 * k * (j + 1)) % 2**32]
                k += 1
    return {"size": [S, S], "clear": [0.0, 0.0, 0.0, 1],
            "attributes": [{"location": 0, "components": 2, "data": pos},
                           {"location": 1, "components": 1, "type": "int", "data": mat},
                           {"location": 2, "components": 2, "type": "uint", "data": seed}]}

dump("iattr_tris", iattr_tris())

# ---- integer textures (issue 15 leftovers, session 6: itex_*) ----
# itex: the full-screen quad over two 8x8 integer textures, read texel for texel (8x8 pixels a
# texel). u_lut (RGBA32I, an isampler2D lookup table): r = 2^24 + k * 65537 + red (low byte the
# red, the whole above 2^24), g = -(1000 + green), b = blue << 20 | k, a = +-(k + 1) (the sign a
# shade). u_bits (RGBA32UI, a usampler2D): r = a packed RGBA8 colour (words above 2^31), g = a
# 32-bit stripe mask, b = 0xFFFFFFFF - k, a = k * 0x9E3779B9 mod 2^32.
def itex_textures():
    lut, bits = [], []
    for y in range(8):
        for x in range(8):
            k = y * 8 + x
            red, green, blue = (37 * k + 11) % 256, (91 * k + 200) % 256, (53 * k + 7) % 256
            lut += [2**24 + k * 65537 * 256 + red, -(1000 + green), (blue << 20) | k,
                    (k + 1) if (x + y) % 3 else -(k + 1)]
            a = 128 + (k * 29) % 128
            packed = red | (green << 8) | (((blue * 3) % 256) << 16) | (a << 24)
            mask = (0x0F0F0F0F << (k % 4) | 0x80000001 * (k % 2)) % 2**32
            bits += [packed, mask, 0xFFFFFFFF - k, (k * 0x9E3779B9) % 2**32]
    return ({"unit": 0, "width": 8, "height": 8, "format": "rgba32i", "ints": lut},
            {"unit": 1, "width": 8, "height": 8, "format": "rgba32ui", "ints": bits})

lut_tex, bits_tex = itex_textures()
dump("itex", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
              "textures": {"u_lut": lut_tex, "u_bits": bits_tex}})

# ---- array textures (session 6: arr_*) ----
# arr: the full-screen quad over a 16x16 sampler2DArray of 4 layers (a distinct colour
# pattern each: checks, stripes, rings, a diagonal ramp), mipmapped, trilinear; drawn by
# Gfx3D's array textures too (corpus.txt, since session 8).
def array_layers(n):
    layers = []
    for l in range(4):
        px = []
        for y in range(n):
            for x in range(n):
                if l == 0:
                    c = (230, 80, 40) if ((x // 4) + (y // 4)) % 2 == 0 else (30, 40, 120)
                elif l == 1:
                    c = (40, 200, 90) if (x // 2) % 2 == 0 else (240, 230, 200)
                elif l == 2:
                    r = ((x - 7.5) ** 2 + (y - 7.5) ** 2) ** 0.5
                    c = (200, 60, 220) if int(r) % 4 < 2 else (20, 20, 30)
                else:
                    c = (clamp8(16 * x), clamp8(16 * y), clamp8(255 - 8 * (x + y)))
                px += list(c) + [255]
        layers.append(px)
    return {"unit": 0, "width": n, "height": n, "layers": layers, "filter": "linear",
            "min_filter": "linear_mipmap_linear", "wrap": "repeat", "mipmaps": True}

# Integer arrays (session 9: iarr_*): u_ids, an RGBA32I 8x8 array of 3 layers (r = 2^24 +
# k * 65793 + red, g = -(1000 + green), b = blue << 20 | layer, a = +-(k + 1)), and u_masks, an
# RGBA32UI 4x4 array of 2 layers of packed colours (r) and stripe masks (g), words above 2^31.
def int_array_textures():
    ids, masks = [], []
    for l in range(3):
        w = []
        for y in range(8):
            for x in range(8):
                k = y * 8 + x
                red = (37 * k + 80 * l + 11) % 256
                green = (91 * k + 50 * l + 200) % 256
                blue = (53 * k + 90 * l + 7) % 256
                w += [2**24 + k * 65793 + red, -(1000 + green), (blue << 20) | l,
                      (k + 1) if (x + y + l) % 3 else -(k + 1)]
        ids.append(w)
    for l in range(2):
        w = []
        for k in range(16):
            red, green, blue = (70 * k + 120 * l) % 256, (33 * k + 9) % 256, (150 + 7 * k) % 256
            packed = red | (green << 8) | (blue << 16) | ((128 + k * 8) << 24)
            w += [packed, (0xF0F0F0F0 >> (k % 4)) | (0x80000000 * l), 0xFFFFFFFF - k - 16 * l,
                  (k * 0x9E3779B9 + l) % 2**32]
        masks.append(w)
    return ({"unit": 1, "width": 8, "height": 8, "format": "rgba32i", "layers": ids},
            {"unit": 2, "width": 4, "height": 4, "format": "rgba32ui", "layers": masks})

ids_tex, masks_tex = int_array_textures()
dump("arr", {"size": [S, S], "attributes": [FULLSCREEN], "indices": QIDX,
             "uniforms": {"u_resolution": [S, S]},
             "textures": {"u_layers": array_layers(16), "u_ids": ids_tex,
                          "u_masks": masks_tex}})
