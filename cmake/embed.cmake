# A file's bytes as a C array: cmake -DIN=file -DOUT=header -DNAME=array -P embed.cmake
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* Made by cmake/embed.cmake from ${IN}. */\n"
     "alignas(8) static const unsigned char ${NAME}[] = {\n${bytes}};\n")
