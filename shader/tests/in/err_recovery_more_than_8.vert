#version 330 core
void main() {
    float a0 = ;
    float a1 = ;
    float a2 = ;
    float a3 = ;
    float a4 = ;
    float a5 = ;
    float a6 = ;
    float a7 = ;
    float a8 = ;
    float a9 = ;
}
