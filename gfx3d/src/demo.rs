//! The demo scene of the main job, written in language profile 2 and drawn in passes:
//!
//! 1. the **shadow pass**: the crate, the pyramid and the instanced ring from the key light
//!    (an orthographic view along it) into a [`DEMO_SHADOW_SIZE`]² depth target, colour
//!    writes off, with a polygon offset against acne;
//! 2. the **scene pass** into an off-screen float target (RGBA32F where the backend can
//!    render to it, RGBA8 otherwise): first a cube-mapped skybox (a procedural sky cube with
//!    a gradient and a sun made on the CPU, the sun's HDR gain in its alpha), then the opaque
//!    objects lit by an array of `Light` structs in a loop with a uniform light count, light 0
//!    shadowed through a `sampler2DShadow` over the shadow pass's depth (LEQUAL compare, PCF
//!    under LINEAR): a normal-mapped, mipmapped tiled floor (generated albedo and normal map,
//!    both with box-filtered mip chains, trilinear), a textured crate, a gold pyramid; then an
//!    instanced ring of small cubes (one `draw_instanced`, each placed by `gl_InstanceID`),
//!    and last a transparent glass cube blended over the rest (alpha blending, no depth
//!    writes);
//! 3. the **post-processing pass**: the scene target sampled as a texture by a full-screen
//!    quad into the demo's target, tone-mapped (exposure, extended Reinhard on the luminance)
//!    with a vignette: on a float scene target it maps the HDR values (specular highlights
//!    and the sun above 1) instead of values clamped to 1.
//!
//! Rendered through whatever backend the `Gfx3d` value runs. Used by the kernel's demo mode
//! (one `frame(index)` per displayed frame), its guest differential test and the benches.
//! Each pass is its own method.
//!
//! This module must never touch a device directly or keep state outside the `Demo` value.

use libm::{cosf, powf, sinf, sqrtf};

use crate::error::{Error, Result};
use crate::geometry::{self, MeshData};
use crate::handle::{ContextId, MeshId, ProgramId, TargetId, TextureId};
use crate::layout::{Element, VertexLayout};
use crate::linked::Linked;
use crate::math::{dot, normalize, Mat3, Mat4, Vec3};
use crate::mesh::Usage;
use crate::scenes::SceneError;
use crate::state::{Blend, ColorMask, CompareFunc, DepthDesc};
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::{Filter, MipFilter, SamplerState, Wrap};
use crate::Gfx3d;

pub const DEMO_WIDTH: u32 = 640;
pub const DEMO_HEIGHT: u32 = 480;

/// Lights the lit shader has room for (`MAX_LIGHTS` in [`LIT_FRAG`]).
pub const DEMO_LIGHTS_MAX: usize = 4;
/// Lights the demo switches on (the `lightCount` uniform).
pub const DEMO_LIGHTS: usize = 3;
/// Cubes of the instanced ring (the `ringCount` uniform, one instanced draw).
pub const DEMO_RING: u32 = 8;
/// Edge of the square shadow map (texels): small, so the depth pass stays cheap under TCG.
pub const DEMO_SHADOW_SIZE: u32 = 256;
/// Edge of each skybox face (texels).
pub const DEMO_SKY_SIZE: u32 = 32;
/// Edge of the floor's albedo and normal map (texels; both get a full mip chain).
pub const DEMO_FLOOR_TEXTURE: u32 = 64;

/// Where the camera stands (also the `eye` uniform of the specular term).
const EYE: [f32; 3] = [0.0, 1.4, 6.5];
/// Where the key light (light 0, the shadow caster) stands.
const KEY_LIGHT: [f32; 3] = [3.0, 4.0, 4.0];
/// What the shadow map's orthographic view looks at, and its half extent (world units).
const SHADOW_CENTER: [f32; 3] = [0.0, -0.3, 0.0];
const SHADOW_HALF: f32 = 4.5;
/// Direction towards the sky's sun (low, ahead of the camera).
const SUN: [f32; 3] = [-0.35, 0.2, -1.0];

/// Vertex shader of the lit objects: the canonical layout (position, normal, uv), the
/// context's matrices, and the position in the shadow map's space (`shadowMatrix`: the key
/// light's orthographic view-projection, biased to texture coordinates and window depth).
pub const LIT_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
uniform mat3 normalMatrix;
uniform mat4 shadowMatrix;
out vec3 vN;
out vec3 vP;
out vec2 vUV;
out vec3 vShadow;
void main() {
    vec4 world = model * vec4(position, 1.0);
    vP = world.xyz;
    vN = normalize(normalMatrix * normal);
    vUV = uv;
    vShadow = (shadowMatrix * world).xyz;
    gl_Position = projection * view * world;
}
";

/// Vertex shader of the instanced ring: instance `gl_InstanceID` of `ringCount` sits at its
/// angle on a circle of `ringRadius` (turned by `ringAngle`), bobbing, scaled by 0.28.
pub const RING_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
uniform mat4 shadowMatrix;
uniform float ringAngle;
uniform float ringRadius;
uniform int ringCount;
out vec3 vN;
out vec3 vP;
out vec2 vUV;
out vec3 vShadow;
void main() {
    float a = ringAngle + 6.2831853 * float(gl_InstanceID) / float(ringCount);
    float c = cos(a);
    float s = sin(a);
    vec3 p = position * 0.28;
    vec3 spun = vec3(c * p.x + s * p.z, p.y, c * p.z - s * p.x);
    vec3 n = vec3(c * normal.x + s * normal.z, normal.y, c * normal.z - s * normal.x);
    float bob = 0.15 * sin(a * 3.0);
    vec4 world = model * vec4(spun + vec3(ringRadius * s, bob, ringRadius * c), 1.0);
    vP = world.xyz;
    vN = normalize(mat3(model) * n);
    vUV = uv;
    vShadow = (shadowMatrix * world).xyz;
    gl_Position = projection * view * world;
}
";

/// The lit fragment shader with extra declarations `$decl` and the shading normal `n` made by
/// `$normal`: an array of `Light` structs summed in a loop (`lightCount` of `MAX_LIGHTS`
/// switched on), Blinn-Phong with a linear range falloff, over the texture times `tint`
/// (whose alpha is the output's: the glass cube's transparency). Light 0 is shadowed by the
/// shadow map (`sampler2DShadow`, unit 1; the map's space is orthographic, so no division by
/// w; the reference is clamped to 1 so what lies beyond the map's far plane is lit).
/// The loop has a constant bound and tests the uniform count inside, because profile 2 indexes
/// arrays only by constants and unrolled loop indexes today (dynamic indexing comes with part
/// 3; then the bound can be `lightCount` itself).
macro_rules! lit_frag {
    ($decl:literal, $normal:literal) => {
        concat!(
            "#version 330 core
#pragma chrisos profile 2
struct Light {
    vec3 position;
    vec3 color;
    float range;
};
const int MAX_LIGHTS = 4;
in vec3 vN;
in vec3 vP;
in vec2 vUV;
in vec3 vShadow;
uniform Light lights[MAX_LIGHTS];
uniform int lightCount;
uniform vec3 ambient;
uniform vec3 eye;
uniform vec4 tint;
uniform float shininess;
uniform sampler2D albedo;
uniform sampler2DShadow shadowMap;
",
            $decl,
            "out vec4 color;
void main() {
",
            $normal,
            "    vec3 v = normalize(eye - vP);
    vec4 base = texture(albedo, vUV) * tint;
    float keyLit = texture(shadowMap, vec3(vShadow.xy, min(vShadow.z - 0.002, 1.0)));
    vec3 sum = ambient * base.rgb;
    for (int i = 0; i < MAX_LIGHTS; i++) {
        if (i < lightCount) {
            vec3 d = lights[i].position - vP;
            float dist = length(d);
            vec3 l = d / dist;
            float ndotl = max(dot(n, l), 0.0);
            float fall = clamp(1.0 - dist / lights[i].range, 0.0, 1.0);
            vec3 h = normalize(l + v);
            float spec = ndotl > 0.0 ? pow(max(dot(n, h), 0.0), shininess) : 0.0;
            float shade = i == 0 ? keyLit : 1.0;
            sum += lights[i].color * (fall * shade) * (base.rgb * ndotl + vec3(0.35 * spec));
        }
    }
    color = vec4(sum, base.a);
}
"
        )
    };
}

/// Fragment shader of every lit object but the floor (see `lit_frag!`).
pub const LIT_FRAG: &str = lit_frag!("", "    vec3 n = normalize(vN);\n");

/// Fragment shader of the normal-mapped floor: [`LIT_FRAG`] whose normal comes from a
/// tangent-space normal map (unit 2) in the frame (`tangent`, N x tangent, N).
pub const BUMP_FRAG: &str = lit_frag!(
    "uniform sampler2D normalMap;\nuniform vec3 tangent;\n",
    "    vec3 n0 = normalize(vN);
    vec3 nm = texture(normalMap, vUV).xyz * 2.0 - vec3(1.0);
    vec3 n = normalize(tangent * nm.x + cross(n0, tangent) * nm.y + n0 * nm.z);
"
);

/// Fragment shader of the shadow pass (colour writes are off; only depth matters).
pub const DEPTH_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
out vec4 color;
void main() {
    color = vec4(1.0);
}
";

/// Vertex shader of the skybox: the full-screen quad with the view ray of each corner
/// (`skyBasis` maps (x_ndc, y_ndc, 1) to the world direction; interpolated linearly, as a ray
/// through the screen is).
pub const SKY_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
uniform mat3 skyBasis;
out vec3 vDir;
void main() {
    vDir = skyBasis * vec3(position.xy, 1.0);
    gl_Position = position;
}
";

/// Fragment shader of the skybox: the sky cube along the view ray; its alpha is the sun's
/// HDR gain (up to 4x: above 1 on a float scene target, for the tone mapping to compress).
pub const SKY_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec3 vDir;
uniform samplerCube sky;
out vec4 color;
void main() {
    vec4 s = texture(sky, vDir);
    color = vec4(s.rgb * (1.0 + 3.0 * s.a), 1.0);
}
";

/// Vertex shader of the full-screen pass: clip-space xyzw and uv (v = 0 at the bottom, GL's).
pub const SCREEN_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
out vec2 fragUV;
void main() {
    fragUV = uv;
    gl_Position = position;
}
";

/// The post-processing pass: exposure, then extended Reinhard tone mapping on the luminance
/// (`invWhite2` = 1 / white^2, the luminance `white` maps to 1; one scalar division per pixel
/// instead of three), a vignette. On a float scene target it compresses the HDR values above 1
/// (the sun, highlights); on an RGBA8 one the curve's slope stays below 1.6, so a one-step
/// difference of the scene's 8-bit pixels stays within the differential rule's 2/255.
pub const TONEMAP_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2D scene;
uniform float exposure;
uniform float invWhite2;
out vec4 color;
void main() {
    vec3 x = texture(scene, fragUV).rgb * exposure;
    float l = dot(x, vec3(0.2126, 0.7152, 0.0722));
    float scale = (1.0 + l * invWhite2) / (1.0 + l);
    vec2 c = fragUV - vec2(0.5);
    float vignette = 1.0 - 0.5 * dot(c, c);
    color = vec4(clamp(x * (scale * vignette), 0.0, 1.0), 1.0);
}
";

/// Handles of the demo's objects (all owned by `owner`).
pub struct Demo {
    pub owner: u32,
    pub ctx: ContextId,
    /// The picture: what the post-processing pass writes (read back, presented).
    pub target: TargetId,
    /// The scene pass's off-screen target, sampled by the post-processing pass.
    pub scene: TargetId,
    /// The scene target's colour format: RGBA32F, or RGBA8 where the backend refuses float
    /// targets (`TargetFormatUnsupported`).
    pub scene_format: TargetFormat,
    /// The shadow pass's target (its depth is sampled with a compare by the scene pass).
    pub shadow: TargetId,
    pub width: u32,
    pub height: u32,
    lit: ProgramId,
    bump: ProgramId,
    ring: ProgramId,
    depth: ProgramId,
    ring_depth: ProgramId,
    sky: ProgramId,
    tonemap: ProgramId,
    cube: MeshId,
    floor: MeshId,
    pyramid: MeshId,
    quad: MeshId,
    crate_tex: TextureId,
    floor_tex: TextureId,
    floor_normals: TextureId,
    sky_tex: TextureId,
    gold: TextureId,
    white: TextureId,
}

fn upload(g: &mut Gfx3d<Linked>, o: u32, m: &MeshData) -> Result<MeshId> {
    let id = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(
        o,
        id,
        &VertexLayout::canonical(),
        &m.vertices,
        Some(&m.indices),
    )?;
    Ok(id)
}

/// Two triangles covering clip space: position xyzw, uv = xy * 0.5 + 0.5 (v = 0 at the
/// bottom, as in GL: a target sampled by it is copied upright, pixel for pixel at the same
/// size).
fn screen_quad(g: &mut Gfx3d<Linked>, o: u32) -> Result<MeshId> {
    let mut data = alloc::vec::Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        data.extend_from_slice(&[x, y, 0.0, 1.0, x * 0.5 + 0.5, y * 0.5 + 0.5]);
    }
    let el = |location: u8, components: u8, offset: u32| Element {
        location,
        components,
        offset,
    };
    let layout = VertexLayout::new(24, &[el(0, 4, 0), el(1, 2, 16)])?;
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout, &data, None)?;
    Ok(m)
}

/// A crate-like texture: a checker with a darker border per cell.
fn crate_texels() -> alloc::vec::Vec<u32> {
    let mut t = geometry::checker(64, 64, 16, 0xFFE0_5030, 0xFFF0_E0C0);
    for y in 0..64u32 {
        for x in 0..64u32 {
            if x % 16 == 0 || y % 16 == 0 {
                if let Some(p) = t.get_mut((y * 64 + x) as usize) {
                    *p = 0xFF40_2010;
                }
            }
        }
    }
    t
}

/// 0xAARRGGBB of channels in [0, 1] (clamped, rounded).
fn argb(a: f32, r: f32, g: f32, b: f32) -> u32 {
    let ch = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u32 & 0xFF;
    (ch(a) << 24) | (ch(r) << 16) | (ch(g) << 8) | ch(b)
}

/// A small integer hash (texel noise that is the same on every run and machine).
fn hash(x: u32, y: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77);
    h ^= h >> 15;
    h = h.wrapping_mul(0xC2B2_AE3D);
    h ^ (h >> 13)
}

/// Edge of one floor tile in texels (4 x 4 tiles per texture repeat).
const TILE: u32 = 16;

/// Height of the floor's relief at texel (x, y): 0 in the grout, rising over a 3-texel bevel
/// to 1 on the tile.
fn tile_height(x: u32, y: u32) -> f32 {
    let (lx, ly) = (x % TILE, y % TILE);
    let edge = lx.min(TILE - 1 - lx).min(ly).min(TILE - 1 - ly);
    (edge as f32 / 3.0).min(1.0)
}

/// The floor's albedo: stone tiles of two shades with texel noise, darker grout.
fn floor_texels() -> alloc::vec::Vec<u32> {
    let n = DEMO_FLOOR_TEXTURE;
    let mut t = alloc::vec::Vec::with_capacity((n * n) as usize);
    for y in 0..n {
        for x in 0..n {
            let k = (hash(x, y) & 0xFF) as f32 / 255.0 * 0.06;
            let texel = if tile_height(x, y) == 0.0 {
                argb(1.0, 0.22 + k, 0.22 + k, 0.24 + k)
            } else if ((x / TILE) + (y / TILE)).is_multiple_of(2) {
                argb(1.0, 0.56 + k, 0.58 + k, 0.62 + k)
            } else {
                argb(1.0, 0.44 + k, 0.46 + k, 0.52 + k)
            };
            t.push(texel);
        }
    }
    t
}

/// The floor's tangent-space normal map (xyz * 0.5 + 0.5 in rgb): the gradient of
/// [`tile_height`] (u along x, v along the rows), wrapping like the texture repeats.
fn floor_normal_texels() -> alloc::vec::Vec<u32> {
    let n = DEMO_FLOOR_TEXTURE;
    let mut t = alloc::vec::Vec::with_capacity((n * n) as usize);
    for y in 0..n {
        for x in 0..n {
            let dx = tile_height((x + 1) % n, y) - tile_height((x + n - 1) % n, y);
            let dy = tile_height(x, (y + 1) % n) - tile_height(x, (y + n - 1) % n);
            let v = normalize([-dx * 1.5, -dy * 1.5, 1.0]);
            t.push(argb(
                1.0,
                v[0] * 0.5 + 0.5,
                v[1] * 0.5 + 0.5,
                v[2] * 0.5 + 0.5,
            ));
        }
    }
    t
}

/// The sky's colour along direction `d`: a gradient from the horizon to the zenith, a darker
/// haze below the horizon, a glow and a disc around [`SUN`]; alpha is the sun's HDR gain.
fn sky_color(d: Vec3) -> u32 {
    let d = normalize(d);
    let mix = |a: [f32; 3], b: [f32; 3], t: f32| {
        [
            a[0] + (b[0] - a[0]) * t,
            a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t,
        ]
    };
    let horizon = [0.78, 0.80, 0.86];
    let mut c = if d[1] >= 0.0 {
        mix(horizon, [0.16, 0.30, 0.66], sqrtf(d[1]))
    } else {
        mix(horizon, [0.30, 0.29, 0.30], sqrtf(-d[1]).min(1.0))
    };
    // Smooth falloffs (no hard disc edge), so the 32-texel faces filter into a round sun.
    let cos_sun = dot(d, normalize(SUN)).max(0.0);
    let glow = 0.35 * powf(cos_sun, 64.0);
    c = [c[0] + glow, c[1] + glow * 0.8, c[2] + glow * 0.5];
    let disc = powf(cos_sun, 900.0);
    let c = mix(c, [1.0, 0.96, 0.88], disc);
    argb(disc, c[0], c[1], c[2])
}

/// The direction of texel (x, y) of cube face `face` (0..6: +x, -x, +y, -y, +z, -z; row 0 at
/// t = 0), GL's face selection inverted.
fn cube_direction(face: u32, x: u32, y: u32, size: u32) -> Vec3 {
    let sc = (x as f32 + 0.5) / size as f32 * 2.0 - 1.0;
    let tc = (y as f32 + 0.5) / size as f32 * 2.0 - 1.0;
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// The six faces of the sky cube, [`DEMO_SKY_SIZE`]² each.
fn sky_faces() -> [alloc::vec::Vec<u32>; 6] {
    let n = DEMO_SKY_SIZE;
    core::array::from_fn(|face| {
        let mut t = alloc::vec::Vec::with_capacity((n * n) as usize);
        for y in 0..n {
            for x in 0..n {
                t.push(sky_color(cube_direction(face as u32, x, y, n)));
            }
        }
        t
    })
}

/// The key light's orthographic view and projection (the shadow pass's camera).
fn light_view_projection() -> (Mat4, Mat4) {
    let dir = normalize([
        KEY_LIGHT[0] - SHADOW_CENTER[0],
        KEY_LIGHT[1] - SHADOW_CENTER[1],
        KEY_LIGHT[2] - SHADOW_CENTER[2],
    ]);
    let eye = [
        SHADOW_CENTER[0] + dir[0] * 8.0,
        SHADOW_CENTER[1] + dir[1] * 8.0,
        SHADOW_CENTER[2] + dir[2] * 8.0,
    ];
    let view = Mat4::look_at(eye, SHADOW_CENTER, [0.0, 1.0, 0.0]);
    let h = SHADOW_HALF;
    (view, Mat4::orthographic(-h, h, -h, h, 1.0, 16.0))
}

/// World position -> (u, v, window depth) of the shadow map: the light's projection, then
/// x, y, z from [-1, 1] to [0, 1], as in GL (a sampled target's t = 0 is window y 0).
fn shadow_matrix() -> Mat4 {
    let (view, proj) = light_view_projection();
    Mat4::translation(0.5, 0.5, 0.5)
        .mul(&Mat4::scale(0.5, 0.5, 0.5))
        .mul(&proj)
        .mul(&view)
}

fn program(
    g: &mut Gfx3d<Linked>,
    o: u32,
    c: ContextId,
    vs: &str,
    fs: &str,
    name: &str,
) -> core::result::Result<ProgramId, SceneError> {
    let linked = Linked::from_glsl(g.compiler(), vs, fs, name)?;
    Ok(g.prog_prepare(o, c, linked)?)
}

/// A texture with level 0 `texels`, its box-filtered mip chain and a trilinear repeat sampler
/// (`mip` `MipFilter::Linear`; `MipFilter::None`: bilinear from level 0, no chain).
fn mipmapped(
    g: &mut Gfx3d<Linked>,
    o: u32,
    size: u32,
    texels: &[u32],
    mip: MipFilter,
) -> Result<TextureId> {
    let t = g.tex_create(o, size, size)?;
    g.tex_upload(o, t, texels)?;
    if mip != MipFilter::None {
        g.tex_generate_mipmaps(o, t)?;
    }
    g.tex_sampler(
        o,
        t,
        SamplerState {
            min_filter: Some(Filter::Linear),
            mip,
            ..SamplerState::new(Filter::Linear, Wrap::Repeat)
        },
    )?;
    Ok(t)
}

/// The shadow map's sampler: LEQUAL compare, bilinear (PCF over 2x2 texels), clamped.
const SHADOW_SAMPLER: SamplerState = SamplerState {
    compare: Some(CompareFunc::LessEqual),
    ..SamplerState::new(Filter::Linear, Wrap::ClampToEdge)
};

impl Demo {
    /// Creates the context, the `width` x `height` targets, the programs, meshes and textures.
    pub fn new(
        g: &mut Gfx3d<Linked>,
        owner: u32,
        width: u32,
        height: u32,
    ) -> core::result::Result<Demo, SceneError> {
        Self::with_mipmaps(g, owner, width, height, true)
    }

    /// [`Self::new`], the floor's textures trilinear over their mip chains when `mipmaps` is
    /// set, else bilinear from level 0 without chains (a differential that leaves mip levels
    /// out, to tell a mip-level fault from the rest).
    pub fn with_mipmaps(
        g: &mut Gfx3d<Linked>,
        owner: u32,
        width: u32,
        height: u32,
        mipmaps: bool,
    ) -> core::result::Result<Demo, SceneError> {
        let o = owner;
        let mip = if mipmaps {
            MipFilter::Linear
        } else {
            MipFilter::None
        };
        let ctx = g.context_create(o)?;
        let target = g.target_create(o, ctx, width, height)?;
        let (scene, scene_format) =
            match g.target_create_format(o, ctx, width, height, TargetFormat::Rgba32F) {
                Ok(t) => (t, TargetFormat::Rgba32F),
                Err(Error::TargetFormatUnsupported { .. }) => {
                    (g.target_create(o, ctx, width, height)?, TargetFormat::Rgba8)
                }
                Err(e) => return Err(e.into()),
            };
        let shadow = g.target_create(o, ctx, DEMO_SHADOW_SIZE, DEMO_SHADOW_SIZE)?;
        let lit = program(g, o, ctx, LIT_VERT, LIT_FRAG, "demo-lit")?;
        let bump = program(g, o, ctx, LIT_VERT, BUMP_FRAG, "demo-bump")?;
        let ring = program(g, o, ctx, RING_VERT, LIT_FRAG, "demo-ring")?;
        let depth = program(g, o, ctx, LIT_VERT, DEPTH_FRAG, "demo-depth")?;
        let ring_depth = program(g, o, ctx, RING_VERT, DEPTH_FRAG, "demo-ring-depth")?;
        let sky = program(g, o, ctx, SKY_VERT, SKY_FRAG, "demo-sky")?;
        let tonemap = program(g, o, ctx, SCREEN_VERT, TONEMAP_FRAG, "demo-tonemap")?;
        let cube = upload(g, o, &geometry::cube(1.6))?;
        let floor = upload(g, o, &geometry::plane(14.0, -1.2, 7.0))?;
        let pyramid = upload(g, o, &geometry::pyramid(1.4))?;
        let quad = screen_quad(g, o)?;
        let crate_tex = g.tex_create(o, 64, 64)?;
        g.tex_upload(o, crate_tex, &crate_texels())?;
        g.tex_sampler(
            o,
            crate_tex,
            SamplerState::new(Filter::Linear, Wrap::Repeat),
        )?;
        let floor_tex = mipmapped(g, o, DEMO_FLOOR_TEXTURE, &floor_texels(), mip)?;
        let floor_normals = mipmapped(g, o, DEMO_FLOOR_TEXTURE, &floor_normal_texels(), mip)?;
        let sky_tex = g.tex_create_cube(o, DEMO_SKY_SIZE, DEMO_SKY_SIZE)?;
        for (face, texels) in sky_faces().iter().enumerate() {
            g.tex_upload_face(o, sky_tex, face as u32, texels)?;
        }
        g.tex_sampler(
            o,
            sky_tex,
            SamplerState::new(Filter::Linear, Wrap::ClampToEdge),
        )?;
        let gold = g.tex_solid(o, 0xFFFF_C030)?;
        let white = g.tex_solid(o, 0xFFFF_FFFF)?;
        g.cull_back(o, ctx, true)?;
        g.depth_test(o, ctx, true)?;
        Ok(Demo {
            owner,
            ctx,
            target,
            scene,
            scene_format,
            shadow,
            width,
            height,
            lit,
            bump,
            ring,
            depth,
            ring_depth,
            sky,
            tonemap,
            cube,
            floor,
            pyramid,
            quad,
            crate_tex,
            floor_tex,
            floor_normals,
            sky_tex,
            gold,
            white,
        })
    }

    /// Renders frame `index` (the animation advances 2 degrees per frame): the shadow pass,
    /// the scene pass, then the post-processing pass.
    pub fn frame(&self, g: &mut Gfx3d<Linked>, index: u32) -> Result<()> {
        let a = (index % 3600) as f32 * 2.0;
        self.shadow_pass(g, a)?;
        self.scene_pass(g, a)?;
        self.post_pass(g)
    }

    /// The lights of frame angle `a` (degrees): a warm key light, a blue and a red one
    /// orbiting the crate; the fourth slot stays off (`lightCount` = [`DEMO_LIGHTS`]).
    fn lights(a: f32) -> [[f32; 7]; DEMO_LIGHTS_MAX] {
        let r = a * (core::f32::consts::PI / 180.0);
        [
            [
                KEY_LIGHT[0],
                KEY_LIGHT[1],
                KEY_LIGHT[2],
                1.0,
                0.92,
                0.8,
                14.0,
            ],
            [
                -3.0 * cosf(r * 0.7),
                0.6,
                2.5 * sinf(r * 0.7),
                0.25,
                0.45,
                1.0,
                6.0,
            ],
            [
                2.8 * cosf(r * 0.5 + 2.0),
                1.8,
                -2.0 + 1.5 * sinf(r * 0.5 + 2.0),
                1.0,
                0.3,
                0.2,
                6.0,
            ],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        ]
    }

    /// Sets the lighting uniforms of the bound (lit, bump or ring) program and binds the
    /// shadow map to unit 1.
    fn set_lighting(&self, g: &mut Gfx3d<Linked>, a: f32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        for (i, l) in Self::lights(a).iter().enumerate() {
            let field = |f: &str| alloc::format!("lights[{}].{}", i, f);
            g.uniform_f(o, c, &field("position"), &l[0..3])?;
            g.uniform_f(o, c, &field("color"), &l[3..6])?;
            g.uniform_f(o, c, &field("range"), &l[6..7])?;
        }
        g.uniform_f(o, c, "lightCount", &[DEMO_LIGHTS as f32])?;
        g.uniform_f(o, c, "ambient", &[0.16, 0.16, 0.2])?;
        g.uniform_f(o, c, "eye", &EYE)?;
        g.uniform_f(o, c, "shininess", &[32.0])?;
        g.uniform_mat4(o, c, "shadowMatrix", &shadow_matrix())
    }

    fn draw_lit(
        &self,
        g: &mut Gfx3d<Linked>,
        mesh: MeshId,
        tex: TextureId,
        tint: [f32; 4],
        model: &Mat4,
    ) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        g.set_model(o, c, model)?;
        g.uniform_f(o, c, "tint", &tint)?;
        g.bind_texture(o, c, 0, Some(tex))?;
        g.draw(o, c, mesh)
    }

    /// The crate's and the pyramid's model matrices at frame angle `a`.
    fn models(a: f32) -> (Mat4, Mat4) {
        let crate_model = Mat4::translation(0.0, 0.3, 0.0)
            .mul(&Mat4::rotation_y(a))
            .mul(&Mat4::rotation_x(a * 0.65));
        let pyramid_model = Mat4::translation(-2.6, -1.2, -1.0).mul(&Mat4::rotation_y(-a));
        (crate_model, pyramid_model)
    }

    /// Sets the ring program's uniforms (bound) for frame angle `a` and its model matrix.
    fn set_ring(&self, g: &mut Gfx3d<Linked>, a: f32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        let rad = a * (core::f32::consts::PI / 180.0);
        g.uniform_f(o, c, "ringAngle", &[rad * 0.5])?;
        g.uniform_f(o, c, "ringRadius", &[2.2])?;
        g.uniform_f(o, c, "ringCount", &[DEMO_RING as f32])?;
        g.set_model(o, c, &Mat4::translation(0.0, -0.6, 0.0))
    }

    /// Pass 1: the shadow casters' depth from the key light into the shadow target (the
    /// floor only receives; the glass cube casts none).
    fn shadow_pass(&self, g: &mut Gfx3d<Linked>, a: f32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        let (view, proj) = light_view_projection();
        let (crate_model, pyramid_model) = Self::models(a);
        g.begin(o, c, self.shadow)?;
        g.set_blend(o, c, None)?;
        g.set_depth(o, c, DepthDesc::DEFAULT)?;
        g.clear(o, c, [1.0, 1.0, 1.0, 1.0], true)?;
        g.set_color_mask(
            o,
            c,
            ColorMask {
                r: false,
                g: false,
                b: false,
                a: false,
            },
        )?;
        g.set_polygon_offset(o, c, 2.0, 2.0)?;
        g.set_view(o, c, &view)?;
        g.set_projection(o, c, &proj)?;
        g.use_program(o, c, self.depth)?;
        g.set_model(o, c, &crate_model)?;
        g.draw(o, c, self.cube)?;
        g.set_model(o, c, &pyramid_model)?;
        g.draw(o, c, self.pyramid)?;
        g.use_program(o, c, self.ring_depth)?;
        self.set_ring(g, a)?;
        g.draw_instanced(o, c, self.cube, DEMO_RING)?;
        g.set_polygon_offset(o, c, 0.0, 0.0)?;
        g.set_color_mask(o, c, ColorMask::ALL)?;
        g.end(o, c)
    }

    /// The skybox's `skyBasis`: (x_ndc, y_ndc, 1) -> the world direction of that view ray,
    /// from the context's view (rotation rows: right, up, back) and projection (scales).
    fn sky_basis(view: &Mat4, proj: &Mat4) -> Mat3 {
        let (sx, sy) = (proj.at(0, 0), proj.at(1, 1));
        let sx = if sx.abs() > 1e-6 { 1.0 / sx } else { 1.0 };
        let sy = if sy.abs() > 1e-6 { 1.0 / sy } else { 1.0 };
        let row = |r: usize| [view.at(r, 0), view.at(r, 1), view.at(r, 2)];
        let (right, up, back) = (row(0), row(1), row(2));
        Mat3([
            right[0] * sx,
            right[1] * sx,
            right[2] * sx,
            up[0] * sy,
            up[1] * sy,
            up[2] * sy,
            -back[0],
            -back[1],
            -back[2],
        ])
    }

    /// Pass 2: the skybox, the lit scene into the off-screen target (frame angle `a`,
    /// degrees).
    fn scene_pass(&self, g: &mut Gfx3d<Linked>, a: f32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        let rad = a * (core::f32::consts::PI / 180.0);
        let (crate_model, pyramid_model) = Self::models(a);
        g.begin(o, c, self.scene)?;
        g.set_blend(o, c, None)?;
        g.set_depth(o, c, DepthDesc::DEFAULT)?;
        g.clear(o, c, [0.06, 0.08, 0.14, 1.0], true)?;
        g.camera(o, c, EYE, 10.0 * sinf(rad * 0.25), 12.0)?;
        // The skybox first: every pixel, no depth test or writes.
        let (_, view, proj) = g.matrices(o, c)?;
        g.use_program(o, c, self.sky)?;
        g.uniform_f(o, c, "skyBasis", &Self::sky_basis(&view, &proj).0)?;
        g.bind_texture(o, c, 0, Some(self.sky_tex))?;
        g.set_depth(
            o,
            c,
            DepthDesc {
                test: false,
                write: false,
                ..DepthDesc::DEFAULT
            },
        )?;
        g.draw(o, c, self.quad)?;
        g.set_depth(o, c, DepthDesc::DEFAULT)?;
        // The opaque objects, light 0 shadowed by the shadow pass's depth (unit 1).
        g.bind_target_texture(o, c, 1, self.shadow, TargetPlane::Depth, SHADOW_SAMPLER)?;
        let opaque = [1.0, 1.0, 1.0, 1.0];
        g.use_program(o, c, self.bump)?;
        self.set_lighting(g, a)?;
        g.uniform_f(o, c, "tangent", &[1.0, 0.0, 0.0])?;
        g.bind_texture(o, c, 2, Some(self.floor_normals))?;
        self.draw_lit(g, self.floor, self.floor_tex, opaque, &Mat4::IDENTITY)?;
        g.bind_texture(o, c, 2, None)?;
        g.use_program(o, c, self.lit)?;
        self.set_lighting(g, a)?;
        self.draw_lit(g, self.cube, self.crate_tex, opaque, &crate_model)?;
        self.draw_lit(g, self.pyramid, self.gold, opaque, &pyramid_model)?;
        // The instanced ring around the crate: one draw, placed by gl_InstanceID.
        g.use_program(o, c, self.ring)?;
        self.set_lighting(g, a)?;
        self.set_ring(g, a)?;
        g.uniform_f(o, c, "tint", &[0.55, 0.85, 0.6, 1.0])?;
        g.bind_texture(o, c, 0, Some(self.crate_tex))?;
        g.draw_instanced(o, c, self.cube, DEMO_RING)?;
        // Last, the transparent glass cube over everything: blended, depth tested, no writes.
        g.use_program(o, c, self.lit)?;
        g.set_blend(o, c, Some(Blend::ALPHA))?;
        g.set_depth(
            o,
            c,
            DepthDesc {
                write: false,
                ..DepthDesc::DEFAULT
            },
        )?;
        let glass_model = Mat4::translation(2.4 * cosf(rad), 0.5, 2.4 * sinf(rad) - 0.3)
            .mul(&Mat4::rotation_y(a * 1.5))
            .mul(&Mat4::scale(0.6, 0.6, 0.6));
        self.draw_lit(
            g,
            self.cube,
            self.white,
            [0.5, 0.8, 1.0, 0.45],
            &glass_model,
        )?;
        g.set_blend(o, c, None)?;
        g.set_depth(o, c, DepthDesc::DEFAULT)?;
        g.bind_texture(o, c, 1, None)?;
        g.end(o, c)
    }

    /// Pass 3: the scene target tone-mapped into the demo's target.
    fn post_pass(&self, g: &mut Gfx3d<Linked>) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        g.begin(o, c, self.target)?;
        g.clear(o, c, [0.0, 0.0, 0.0, 1.0], true)?;
        g.use_program(o, c, self.tonemap)?;
        g.uniform_f(o, c, "exposure", &[1.5])?;
        g.uniform_f(o, c, "invWhite2", &[1.0 / (1.5 * 1.5)])?;
        g.bind_target_texture(
            o,
            c,
            0,
            self.scene,
            TargetPlane::Color,
            SamplerState::default(),
        )?;
        g.draw(o, c, self.quad)?;
        g.bind_texture(o, c, 0, None)?;
        g.end(o, c)
    }

    /// Reads the last frame (row 0 = top, 0xAARRGGBB) into `out` (width x height pixels).
    pub fn read(&self, g: &mut Gfx3d<Linked>, out: &mut [u32]) -> Result<()> {
        g.target_read(self.owner, self.target, out)
    }

    /// Makes the demo target the scanout (VirGL only).
    pub fn present(&self, g: &mut Gfx3d<Linked>) -> Result<()> {
        g.present_scanout(self.owner, self.target)
    }

    /// Releases everything of the demo's owner.
    pub fn destroy(self, g: &mut Gfx3d<Linked>) {
        g.drop_owner(self.owner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GL's cube face selection (major axis) and (s, t) of direction `d`.
    fn gl_face(d: Vec3) -> (u32, f32, f32) {
        let [x, y, z] = d;
        let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
        let (face, sc, tc, ma) = if ax >= ay && ax >= az {
            if x > 0.0 {
                (0, -z, -y, ax)
            } else {
                (1, z, -y, ax)
            }
        } else if ay >= az {
            if y > 0.0 {
                (2, x, z, ay)
            } else {
                (3, x, -z, ay)
            }
        } else if z > 0.0 {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        };
        (face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
    }

    #[test]
    fn sky_texels_point_where_gl_samples_them() {
        let n = DEMO_SKY_SIZE;
        for face in 0..6 {
            for (x, y) in [(0, 0), (n - 1, 0), (5, 17), (n - 1, n - 1)] {
                let (f, s, t) = gl_face(cube_direction(face, x, y, n));
                assert_eq!(f, face);
                assert!(
                    (s * n as f32 - 0.5 - x as f32).abs() < 1e-3,
                    "{face} {x} {y} s {s}"
                );
                assert!(
                    (t * n as f32 - 0.5 - y as f32).abs() < 1e-3,
                    "{face} {x} {y} t {t}"
                );
            }
        }
        // Up is the zenith's blue, down the haze, the sun's texel carries its HDR gain.
        let faces = sky_faces();
        let mid = (n / 2 * n + n / 2) as usize;
        let (up, down) = (faces[2][mid], faces[3][mid]);
        assert!(up & 0xFF > (up >> 16) & 0xFF, "zenith {:08x}", up);
        assert!(down & 0xFF < 0xA0, "below the horizon {:08x}", down);
        let sun = sky_color(SUN);
        assert_eq!(sun >> 24, 0xFF, "sun {:08x}", sun);
        assert_eq!(sky_color([0.0, 1.0, 0.0]) >> 24, 0);
    }

    #[test]
    fn the_shadow_matrix_maps_the_casters_into_the_map() {
        // The crate's centre lands inside the map; a floor point along the light ray behind it
        // at the same (u, v), deeper.
        let m = shadow_matrix();
        let c = m.mul_vec4([0.0, 0.3, 0.0, 1.0]);
        let d = normalize([
            KEY_LIGHT[0] - SHADOW_CENTER[0],
            KEY_LIGHT[1] - SHADOW_CENTER[1],
            KEY_LIGHT[2] - SHADOW_CENTER[2],
        ]);
        let k = 1.5 / d[1];
        let f = m.mul_vec4([-d[0] * k, -1.2, -d[2] * k, 1.0]);
        for v in [c, f] {
            assert!(
                (0.0..1.0).contains(&v[0]) && (0.0..1.0).contains(&v[1]),
                "{v:?}"
            );
            assert!((0.0..1.0).contains(&v[2]), "{v:?}");
        }
        assert!((c[0] - f[0]).abs() < 1e-4 && (c[1] - f[1]).abs() < 1e-4);
        assert!(f[2] > c[2] + 0.05);
        // The light's up (+y) is the map's top (v = 1: GL's t = 0 is the window's bottom).
        let (view, proj) = light_view_projection();
        let up = proj.mul(&view).mul_vec4([0.0, 2.0, 0.0, 1.0]);
        let p = m.mul_vec4([0.0, 2.0, 0.0, 1.0]);
        assert!(up[1] > 0.0 && p[1] > 0.5, "{up:?} {p:?}");
    }
}
