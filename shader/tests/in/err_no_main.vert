#version 330 core
float f() {
    return 1.0;
}
