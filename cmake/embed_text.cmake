# Turns a text file into a C string named SYM:
#   cmake -DIN=file -DOUT=file.c -DSYM=name -P embed_text.cmake
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," arr "${hex}")
file(WRITE ${OUT} "/* Generated from ${IN}; do not edit. */\n"
  "const char ${SYM}[] = {${arr} 0};\n")
