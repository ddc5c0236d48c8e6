# Turns a text file into a C string: embed.cmake -DIN=file -DOUT=file.c
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," arr "${hex}")
file(WRITE ${OUT} "/* Generated from ${IN}; do not edit. */\n"
  "const char xr_embedded_plan[] = {${arr} 0};\n"
  "const char xr_embedded_plan_name[] = \"plans/loopback.yaml\";\n")
