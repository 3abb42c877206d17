#pragma chrisos profile 2
out Colors { vec4 c; } o;
void main() { o.c = vec4(1.0); }
