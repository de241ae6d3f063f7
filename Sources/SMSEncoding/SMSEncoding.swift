// SMS encoding: placeholder until the encoding module lands.
