//! The demo scene of the main job, written in language profile 2 and drawn in passes:
//!
//! 1. *(not yet there: a shadow map from the key light, a depth-only pass into a depth
//!    target sampled with a compare in pass 2, waits for shadow compare samplers)*
//! 2. the **scene pass** into an off-screen target: *(not yet there: a cube-mapped skybox,
//!    waits for cube maps)*, then the opaque objects lit by an array of `Light` structs in a
//!    loop with a uniform light count (a textured floor, a textured crate, a gold pyramid;
//!    *not yet there: a normal-mapped, mipmapped object, waits for mipmaps*), an instanced
//!    ring of small cubes (one `draw_instanced`, each placed by `gl_InstanceID`), and last a
//!    transparent glass cube blended over the rest (alpha blending, no depth writes);
//! 3. the **post-processing pass**: the scene target sampled as a texture by a full-screen
//!    quad into the demo's target, tone-mapped (exposure, extended Reinhard on the luminance)
//!    with a vignette.
//!
//! Rendered through whatever backend the `Gfx3d` value runs. Used by the kernel's demo mode
//! (one `frame(index)` per displayed frame), its guest differential test and the benches.
//! Each pass is its own method, so the missing parts slot in without reshaping the rest.
//!
//! This module must never touch a device directly or keep state outside the `Demo` value.

use libm::{cosf, sinf};

use crate::error::Result;
use crate::geometry::{self, MeshData};
use crate::handle::{ContextId, MeshId, ProgramId, TargetId, TextureId};
use crate::layout::{Element, VertexLayout};
use crate::linked::Linked;
use crate::math::Mat4;
use crate::mesh::Usage;
use crate::scenes::SceneError;
use crate::state::{Blend, DepthDesc};
use crate::target::TargetPlane;
use crate::texture::{Filter, SamplerState, Wrap};
use crate::Gfx3d;

pub const DEMO_WIDTH: u32 = 640;
pub const DEMO_HEIGHT: u32 = 480;

/// Lights the lit shader has room for (`MAX_LIGHTS` in [`LIT_FRAG`]).
pub const DEMO_LIGHTS_MAX: usize = 4;
/// Lights the demo switches on (the `lightCount` uniform).
pub const DEMO_LIGHTS: usize = 3;
/// Cubes of the instanced ring (the `ringCount` uniform, one instanced draw).
pub const DEMO_RING: u32 = 8;

/// Where the camera stands (also the `eye` uniform of the specular term).
const EYE: [f32; 3] = [0.0, 1.4, 6.5];

/// Vertex shader of the lit objects: the canonical layout (position, normal, uv), the
/// context's matrices.
pub const LIT_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
uniform mat3 normalMatrix;
out vec3 vN;
out vec3 vP;
out vec2 vUV;
void main() {
    vec4 world = model * vec4(position, 1.0);
    vP = world.xyz;
    vN = normalize(normalMatrix * normal);
    vUV = uv;
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
uniform float ringAngle;
uniform float ringRadius;
uniform int ringCount;
out vec3 vN;
out vec3 vP;
out vec2 vUV;
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
    gl_Position = projection * view * world;
}
";

/// Fragment shader of every lit object: an array of `Light` structs summed in a loop
/// (`lightCount` of `MAX_LIGHTS` switched on), Blinn-Phong with a linear range falloff, over
/// the texture times `tint` (whose alpha is the output's: the glass cube's transparency).
/// The loop has a constant bound and tests the uniform count inside, because profile 2 indexes
/// arrays only by constants and unrolled loop indexes today (dynamic indexing comes with part
/// 3; then the bound can be `lightCount` itself).
pub const LIT_FRAG: &str = "#version 330 core
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
uniform Light lights[MAX_LIGHTS];
uniform int lightCount;
uniform vec3 ambient;
uniform vec3 eye;
uniform vec4 tint;
uniform float shininess;
uniform sampler2D albedo;
out vec4 color;
void main() {
    vec3 n = normalize(vN);
    vec3 v = normalize(eye - vP);
    vec4 base = texture(albedo, vUV) * tint;
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
            sum += lights[i].color * fall * (base.rgb * ndotl + vec3(0.35 * spec));
        }
    }
    color = vec4(sum, base.a);
}
";

/// Vertex shader of the full-screen pass: clip-space xyzw and uv (v = 0 at the top).
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
/// instead of three), a vignette. The curve's slope stays below 1.6, so a one-step difference
/// of the scene's 8-bit pixels stays within the differential rule's 2/255 after the pass.
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
    pub width: u32,
    pub height: u32,
    lit: ProgramId,
    ring: ProgramId,
    tonemap: ProgramId,
    cube: MeshId,
    floor: MeshId,
    pyramid: MeshId,
    quad: MeshId,
    crate_tex: TextureId,
    floor_tex: TextureId,
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

/// Two triangles covering clip space: position xyzw, uv with v = 0 at the top (a target
/// sampled by it is copied upright, pixel for pixel at the same size).
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
        data.extend_from_slice(&[x, y, 0.0, 1.0, x * 0.5 + 0.5, 0.5 - y * 0.5]);
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

impl Demo {
    /// Creates the context, the `width` x `height` targets, the programs, meshes and textures.
    pub fn new(
        g: &mut Gfx3d<Linked>,
        owner: u32,
        width: u32,
        height: u32,
    ) -> core::result::Result<Demo, SceneError> {
        let o = owner;
        let ctx = g.context_create(o)?;
        let target = g.target_create(o, ctx, width, height)?;
        let scene = g.target_create(o, ctx, width, height)?;
        let lit = program(g, o, ctx, LIT_VERT, LIT_FRAG, "demo-lit")?;
        let ring = program(g, o, ctx, RING_VERT, LIT_FRAG, "demo-ring")?;
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
        let floor_tex = g.tex_create(o, 16, 16)?;
        g.tex_upload(
            o,
            floor_tex,
            &geometry::checker(16, 16, 8, 0xFF50_5860, 0xFF90_98A0),
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
            width,
            height,
            lit,
            ring,
            tonemap,
            cube,
            floor,
            pyramid,
            quad,
            crate_tex,
            floor_tex,
            gold,
            white,
        })
    }

    /// Renders frame `index` (the animation advances 2 degrees per frame): the scene pass,
    /// then the post-processing pass.
    pub fn frame(&self, g: &mut Gfx3d<Linked>, index: u32) -> Result<()> {
        let a = (index % 3600) as f32 * 2.0;
        self.scene_pass(g, a)?;
        self.post_pass(g)
    }

    /// The lights of frame angle `a` (degrees): a warm key light, a blue and a red one
    /// orbiting the crate; the fourth slot stays off (`lightCount` = [`DEMO_LIGHTS`]).
    fn lights(a: f32) -> [[f32; 7]; DEMO_LIGHTS_MAX] {
        let r = a * (core::f32::consts::PI / 180.0);
        [
            [3.0, 4.0, 4.0, 1.0, 0.92, 0.8, 14.0],
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

    /// Sets the lighting uniforms of the bound (lit or ring) program.
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
        g.uniform_f(o, c, "shininess", &[32.0])
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

    /// Pass 2: the lit scene into the off-screen target (frame angle `a`, degrees).
    fn scene_pass(&self, g: &mut Gfx3d<Linked>, a: f32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        let rad = a * (core::f32::consts::PI / 180.0);
        g.begin(o, c, self.scene)?;
        g.set_blend(o, c, None)?;
        g.set_depth(o, c, DepthDesc::DEFAULT)?;
        g.clear(o, c, [0.06, 0.08, 0.14, 1.0], true)?;
        g.camera(o, c, EYE, 10.0 * sinf(rad * 0.25), 12.0)?;
        // Not yet there: the skybox (cube map) is drawn here, first.
        // The opaque objects.
        g.use_program(o, c, self.lit)?;
        self.set_lighting(g, a)?;
        let opaque = [1.0, 1.0, 1.0, 1.0];
        self.draw_lit(g, self.floor, self.floor_tex, opaque, &Mat4::IDENTITY)?;
        // Not yet there: the normal-mapped, mipmapped object joins the opaque ones.
        let crate_model = Mat4::translation(0.0, 0.3, 0.0)
            .mul(&Mat4::rotation_y(a))
            .mul(&Mat4::rotation_x(a * 0.65));
        self.draw_lit(g, self.cube, self.crate_tex, opaque, &crate_model)?;
        let pyramid_model = Mat4::translation(-2.6, -1.2, -1.0).mul(&Mat4::rotation_y(-a));
        self.draw_lit(g, self.pyramid, self.gold, opaque, &pyramid_model)?;
        // The instanced ring around the crate: one draw, placed by gl_InstanceID.
        g.use_program(o, c, self.ring)?;
        self.set_lighting(g, a)?;
        g.uniform_f(o, c, "ringAngle", &[rad * 0.5])?;
        g.uniform_f(o, c, "ringRadius", &[2.2])?;
        g.uniform_f(o, c, "ringCount", &[DEMO_RING as f32])?;
        g.uniform_f(o, c, "tint", &[0.55, 0.85, 0.6, 1.0])?;
        g.set_model(o, c, &Mat4::translation(0.0, -0.6, 0.0))?;
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
