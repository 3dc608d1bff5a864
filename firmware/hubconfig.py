# How the reader hub is wired (Raspberry Pi Pico, GPIO numbers).
# SPI0 on GP18 (SCK), GP19 (MOSI/TX), GP16 (MISO/RX); every reader's
# SDA/NSS on its own chip select pin, all RST pins on one GPIO.

SPI_ID = 0
SPI_BAUD = 1000000
SCK_PIN = 18
MOSI_PIN = 19
MISO_PIN = 16
RST_PIN = 22
# channel 0..7 -> chip select pin
CS_PINS = (17, 20, 21, 26, 27, 28, 14, 15)
LED_PIN = 25
# polls of every reader per second at start (the host may change it: RATE)
POLL_RATE = 50
HEARTBEAT_MS = 1000
WATCHDOG_MS = 4000
