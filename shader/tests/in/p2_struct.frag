#pragma chrisos profile 2
struct Material { vec3 albedo; float shininess; };
struct Light { vec3 pos; vec3 color; float k; };
struct Scene { Light key; Material mat; bool lit; };
uniform Light light;
uniform Scene scene;
in vec3 n;
out vec4 color;
const Material chalk = Material(vec3(0.9), 2.0);

Material tint(Material m, vec3 t) {
    Material r = m;
    r.albedo = r.albedo * t;
    return r;
}

vec3 shade(Light l, Material m) {
    float d = max(dot(normalize(n), normalize(l.pos)), 0.0);
    return m.albedo * l.color * d * l.k;
}

void main() {
    struct Local { float a; int b; };
    Local loc = Local(0.5, 2);
    Material m = tint(chalk, vec3(1.0, 0.5, 0.25));
    Light l2;
    l2 = light;
    l2.color.g = 0.5;
    vec3 c = shade(l2, m) + shade(scene.key, scene.mat);
    if (m == chalk) { c = vec3(1.0); }
    if (scene.lit && l2 != light) { c *= loc.a * float(loc.b); }
    color = vec4(c, 1.0);
}
